//! SPIR-V built here from the WGSL (naga), for backends that take it as is: lets the
//! builder mark chosen functions `DontInline`, so a driver that honours the hint compiles
//! one copy of the field multiply instead of one per call site.

use crate::error::{Error, Result};

const OP_NAME: u32 = 5;
const OP_FUNCTION: u32 = 54;
const DONT_INLINE: u32 = 0x2;

/// Functions named in `WGPU_MSM_NOINLINE` (comma-separated), if set.
pub fn noinline_from_env() -> Option<Vec<String>> {
    let v = std::env::var("WGPU_MSM_NOINLINE").ok()?;
    Some(
        v.split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

/// SPIR-V words of `source` with every function named in `names` marked `DontInline`.
///
/// # Errors
/// [`Error::Shader`] when naga rejects the source.
pub fn compile(source: &str, names: &[String]) -> Result<Vec<u32>> {
    let shader_err = |message: String| Error::Shader {
        entry: "spirv".into(),
        message,
    };
    let module = naga::front::wgsl::parse_str(source).map_err(|e| shader_err(e.to_string()))?;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map_err(|e| shader_err(e.to_string()))?;
    // As wgpu builds SPIR-V for a trusted module (`ShaderRuntimeChecks::unchecked`),
    // with debug names so functions can be found by name.
    let unchecked = naga::proc::BoundsCheckPolicy::Unchecked;
    let opts = naga::back::spv::Options {
        lang_version: (1, 3),
        flags: naga::back::spv::WriterFlags::DEBUG,
        bounds_check_policies: naga::proc::BoundsCheckPolicies {
            index: unchecked,
            buffer: unchecked,
            image_load: unchecked,
            binding_array: unchecked,
        },
        zero_initialize_workgroup_memory:
            naga::back::spv::ZeroInitializeWorkgroupMemoryMode::Polyfill,
        force_loop_bounding: false,
        emit_int_div_checks: false,
        ..Default::default()
    };
    let mut words = naga::back::spv::write_vec(&module, &info, &opts, None)
        .map_err(|e| shader_err(e.to_string()))?;
    let marked = mark_dont_inline(&mut words, names);
    log::info!("SPIR-V: {marked} functions marked DontInline");
    Ok(words)
}

/// Sets `DontInline` on the functions whose debug name is in `names`; returns how many.
fn mark_dont_inline(words: &mut [u32], names: &[String]) -> usize {
    let mut ids = std::collections::HashSet::new();
    let mut marked = 0;
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        let op = words[i] & 0xffff;
        if count == 0 {
            break;
        }
        if op == OP_NAME && count >= 3 {
            let bytes: Vec<u8> = words[i + 2..i + count]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .take_while(|&b| b != 0)
                .collect();
            if names.iter().any(|n| n.as_bytes() == bytes.as_slice()) {
                ids.insert(words[i + 1]);
            }
        } else if op == OP_FUNCTION && ids.contains(&words[i + 2]) {
            words[i + 3] |= DONT_INLINE;
            marked += 1;
        }
        i += count;
    }
    marked
}
