//! Choosing devices from what wgpu enumerates: one per physical GPU, the best backend
//! for each, hardware before software, and `WGPU_MSM_DEVICES` selection.
//!
//! The rules are pure functions over [`Candidate`]s so they are tested without a GPU.

use crate::error::Error;
use wgpu::{Backend, DeviceType};

/// Environment variable selecting devices, like `CUDA_VISIBLE_DEVICES`: a comma-separated
/// list of indices (into the deduplicated list) or name substrings; the token `cpu` also
/// admits software adapters (lavapipe, llvmpipe, WARP).
pub const DEVICES_ENV: &str = "WGPU_MSM_DEVICES";

/// What the selection rules need to know of one adapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Adapter name as the driver reports it.
    pub name: String,
    /// Backend it was reached through.
    pub backend: Backend,
    /// Discrete, integrated, CPU, ...
    pub device_type: DeviceType,
    /// PCI vendor id (0 when unknown).
    pub vendor: u32,
    /// PCI device id (0 when unknown).
    pub device: u32,
    /// PCI bus id when the backend reports one (empty otherwise).
    pub pci_bus_id: String,
}

/// Rank of a backend: lower is better (native APIs before GL).
pub fn backend_rank(backend: Backend) -> u8 {
    match backend {
        Backend::Vulkan | Backend::Metal | Backend::Dx12 => 0,
        Backend::Gl => 1,
        _ => 2,
    }
}

/// Whether an adapter is a software rasteriser rather than a GPU.
pub fn is_software(c: &Candidate) -> bool {
    c.device_type == DeviceType::Cpu
}

/// Name without driver decorations: "NVIDIA H200/PCIe/SSE2" and "llvmpipe (LLVM 15, 256
/// bits)" become "nvidia h200" and "llvmpipe".
fn name_key(name: &str) -> String {
    let cut = name.find(['/', '(']).unwrap_or(name.len());
    name[..cut].trim().to_lowercase()
}

/// Whether `a` and `b` (seen through different backends) may be the same physical GPU.
fn same_gpu(a: &Candidate, b: &Candidate) -> bool {
    if !a.pci_bus_id.is_empty() && !b.pci_bus_id.is_empty() {
        return a.pci_bus_id == b.pci_bus_id;
    }
    if a.vendor != 0 && b.vendor != 0 && a.device != 0 && b.device != 0 {
        return a.vendor == b.vendor && a.device == b.device;
    }
    let (ka, kb) = (name_key(&a.name), name_key(&b.name));
    !ka.is_empty() && (ka == kb || ka.starts_with(&kb) || kb.starts_with(&ka))
}

/// Indices of `cands` that survive deduplication, best backend first for each GPU.
///
/// Adapters of the best backend are all distinct GPUs (two H200s share a name but are
/// two devices). An adapter of a worse backend is dropped when it matches a not yet
/// matched adapter of a better backend, so two Vulkan H200s absorb two GL H200s.
pub fn dedup(cands: &[Candidate]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by_key(|&i| backend_rank(cands[i].backend));
    let mut kept: Vec<usize> = Vec::new();
    let mut absorbed = vec![false; cands.len()];
    for &i in &order {
        let rank = backend_rank(cands[i].backend);
        let twin = kept.iter().copied().find(|&k| {
            backend_rank(cands[k].backend) < rank && !absorbed[k] && same_gpu(&cands[k], &cands[i])
        });
        match twin {
            Some(k) => absorbed[k] = true,
            None => kept.push(i),
        }
    }
    kept
}

/// A parsed `WGPU_MSM_DEVICES` value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Whether software adapters are admitted (`cpu` token).
    pub allow_software: bool,
    /// Indices and name substrings, in the order given; empty selects all.
    pub picks: Vec<Pick>,
}

/// One token of a selection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The n-th device of the deduplicated, hardware-first list.
    Index(usize),
    /// Every device whose name contains this (case-insensitive).
    Name(String),
}

impl Selection {
    /// Parses a `WGPU_MSM_DEVICES` value: `"0,1"`, `"h200"`, `"cpu"`, `"cpu,llvmpipe"`.
    pub fn parse(value: &str) -> Selection {
        let mut sel = Selection::default();
        for tok in value.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            if tok.eq_ignore_ascii_case("cpu") {
                sel.allow_software = true;
            } else if let Ok(i) = tok.parse::<usize>() {
                sel.picks.push(Pick::Index(i));
            } else {
                sel.picks.push(Pick::Name(tok.to_lowercase()));
            }
        }
        sel
    }

    /// Reads the selection from the environment.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn from_env() -> Selection {
        std::env::var(DEVICES_ENV)
            .map(|v| Selection::parse(&v))
            .unwrap_or_default()
    }
}

/// Applies dedup, the hardware-first rule and a selection; returns indices into `cands`
/// in the order users will see them (renumbered from 0 by the caller).
///
/// Software adapters are kept when `allow_software` (the `cpu` token or an explicit
/// request) is set, or when there is no hardware adapter at all.
pub fn choose(cands: &[Candidate], sel: &Selection, allow_software: bool) -> Vec<usize> {
    let pool = selectable(cands, sel, allow_software);
    if sel.picks.is_empty() {
        return pool;
    }
    let mut out = Vec::new();
    for pick in &sel.picks {
        let matches: Vec<usize> = match pick {
            Pick::Index(k) => pool.get(*k).copied().into_iter().collect(),
            Pick::Name(s) => pool
                .iter()
                .copied()
                .filter(|&i| cands[i].name.to_lowercase().contains(s.as_str()))
                .collect(),
        };
        for m in matches {
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }
    out
}

/// The adapters a selection's indices and names refer to, in order: one per device
/// (dedup), hardware first, software ones where admitted.
fn selectable(cands: &[Candidate], sel: &Selection, allow_software: bool) -> Vec<usize> {
    let unique = dedup(cands);
    let hardware: Vec<usize> = unique
        .iter()
        .copied()
        .filter(|&i| !is_software(&cands[i]))
        .collect();
    let software_ok = allow_software || sel.allow_software || hardware.is_empty();
    let mut pool: Vec<usize> = hardware;
    if software_ok {
        pool.extend(unique.iter().copied().filter(|&i| is_software(&cands[i])));
    }
    pool
}

impl std::fmt::Display for Selection {
    /// The selection in `WGPU_MSM_DEVICES` syntax (`"cpu,0,h200"`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut toks: Vec<String> = Vec::new();
        if self.allow_software {
            toks.push("cpu".into());
        }
        toks.extend(self.picks.iter().map(|p| match p {
            Pick::Index(i) => i.to_string(),
            Pick::Name(s) => s.clone(),
        }));
        f.write_str(&toks.join(","))
    }
}

/// The error for a selection that [`choose`] answered with nothing although `cands` is
/// not empty: [`Error::NoMatchingDevice`] listing every adapter with what a selection
/// would use to pick it: its index among the selectable devices, or why it has none
/// (a software adapter beside hardware needs the `cpu` token; an adapter of a worse
/// backend is the same device as a listed one).
pub fn no_match(cands: &[Candidate], sel: &Selection, allow_software: bool) -> Error {
    let pool = selectable(cands, sel, allow_software);
    let unique = dedup(cands);
    let describe = |c: &Candidate| format!("{} ({:?}, {:?})", c.name, c.backend, c.device_type);
    let mut adapters: Vec<String> = pool
        .iter()
        .enumerate()
        .map(|(k, &i)| format!("#{k} {}", describe(&cands[i])))
        .collect();
    for (i, c) in cands.iter().enumerate() {
        if pool.contains(&i) {
            continue;
        }
        let why = if unique.contains(&i) {
            "a software adapter, admitted by adding `cpu` to the selection".to_string()
        } else {
            let twin = match pool.iter().position(|&k| same_gpu(&cands[k], c)) {
                Some(k) => format!("#{k}"),
                None => "another adapter".to_string(),
            };
            format!("the same device as {twin} through another backend (WGPU_BACKEND picks it)")
        };
        adapters.push(format!("{}: {why}", describe(c)));
    }
    Error::NoMatchingDevice {
        selection: sel.to_string(),
        adapters,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(name: &str, backend: Backend, ty: DeviceType) -> Candidate {
        Candidate {
            name: name.into(),
            backend,
            device_type: ty,
            vendor: 0,
            device: 0,
            pci_bus_id: String::new(),
        }
    }

    #[test]
    fn same_gpu_through_vulkan_and_gl_is_one_device() {
        let c = vec![
            cand(
                "llvmpipe (LLVM 15.0.6, 256 bits)",
                Backend::Gl,
                DeviceType::Cpu,
            ),
            cand(
                "llvmpipe (LLVM 15.0.6, 256 bits)",
                Backend::Vulkan,
                DeviceType::Cpu,
            ),
        ];
        assert_eq!(dedup(&c), vec![1]);
    }

    #[test]
    fn two_identical_gpus_stay_two_and_absorb_two_gl_twins() {
        let c = vec![
            cand("NVIDIA H200", Backend::Vulkan, DeviceType::DiscreteGpu),
            cand("NVIDIA H200", Backend::Vulkan, DeviceType::DiscreteGpu),
            cand(
                "NVIDIA H200/PCIe/SSE2",
                Backend::Gl,
                DeviceType::DiscreteGpu,
            ),
            cand(
                "NVIDIA H200/PCIe/SSE2",
                Backend::Gl,
                DeviceType::DiscreteGpu,
            ),
        ];
        assert_eq!(dedup(&c), vec![0, 1]);
        let one_gl = &c[..3];
        assert_eq!(dedup(one_gl), vec![0, 1]);
    }

    #[test]
    fn pci_bus_ids_decide_when_present() {
        let mut a = cand("GPU", Backend::Vulkan, DeviceType::DiscreteGpu);
        let mut b = cand("GPU", Backend::Gl, DeviceType::DiscreteGpu);
        a.pci_bus_id = "0000:01:00.0".into();
        b.pci_bus_id = "0000:02:00.0".into();
        assert_eq!(dedup(&[a, b]), vec![0, 1]);
    }

    #[test]
    fn software_only_when_no_hardware_or_asked() {
        let c = vec![
            cand("llvmpipe", Backend::Vulkan, DeviceType::Cpu),
            cand("Radeon", Backend::Vulkan, DeviceType::DiscreteGpu),
        ];
        assert_eq!(choose(&c, &Selection::default(), false), vec![1]);
        assert_eq!(choose(&c, &Selection::parse("cpu"), false), vec![1, 0]);
        assert_eq!(choose(&c[..1], &Selection::default(), false), vec![0]);
    }

    #[test]
    fn selection_by_index_and_name() {
        let c = vec![
            cand("NVIDIA H200", Backend::Vulkan, DeviceType::DiscreteGpu),
            cand("Intel Arc", Backend::Vulkan, DeviceType::IntegratedGpu),
            cand("NVIDIA H200", Backend::Vulkan, DeviceType::DiscreteGpu),
        ];
        assert_eq!(choose(&c, &Selection::parse("1"), false), vec![1]);
        assert_eq!(choose(&c, &Selection::parse("2,0"), false), vec![2, 0]);
        assert_eq!(choose(&c, &Selection::parse("h200"), false), vec![0, 2]);
        assert_eq!(
            choose(&c, &Selection::parse("7"), false),
            Vec::<usize>::new()
        );
        assert_eq!(Selection::parse(" cpu , 0 ").picks, vec![Pick::Index(0)]);
    }

    #[test]
    fn a_selection_matching_nothing_lists_every_adapter() {
        let c = vec![
            cand("NVIDIA H200", Backend::Vulkan, DeviceType::DiscreteGpu),
            cand(
                "NVIDIA H200/PCIe/SSE2",
                Backend::Gl,
                DeviceType::DiscreteGpu,
            ),
            cand(
                "llvmpipe (LLVM 15.0.6, 256 bits)",
                Backend::Vulkan,
                DeviceType::Cpu,
            ),
        ];
        for text in ["7", "radeon", "cpu,9"] {
            let sel = Selection::parse(text);
            assert!(choose(&c, &sel, false).is_empty(), "{text}");
            let Error::NoMatchingDevice {
                selection,
                adapters,
            } = no_match(&c, &sel, false)
            else {
                panic!("{text}: not NoMatchingDevice");
            };
            assert_eq!(selection, text);
            assert_eq!(adapters.len(), 3, "{adapters:?}");
            assert_eq!(adapters[0], "#0 NVIDIA H200 (Vulkan, DiscreteGpu)");
            assert!(adapters
                .iter()
                .any(|a| a.contains("(Gl, DiscreteGpu): the same device as #0")));
            let lvp = adapters.iter().find(|a| a.contains("llvmpipe")).unwrap();
            if sel.allow_software {
                assert!(lvp.starts_with("#1 llvmpipe"), "{lvp}");
            } else {
                assert!(lvp.contains("adding `cpu`"), "{lvp}");
            }
        }
        let msg = no_match(&c, &Selection::parse("7"), false).to_string();
        assert!(
            msg.contains("\"7\" matched none of the 3 adapter(s)"),
            "{msg}"
        );
        assert!(!msg.contains("Install"), "{msg}");
    }
}
