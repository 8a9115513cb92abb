//! Assembling WGSL: small modules from `shaders/`, embedded at build time, joined in
//! dependency order after a prelude generated from the arkworks parameters.
//!
//! Templates use `${F}` (function prefix, e.g. `fq`) and `${FC}` (constant prefix, e.g.
//! `FQ`) for a field, `${BUF}` and `${NAME}` for a point buffer, `${BIG_OF:..}` and
//! `${STORE:..}` for a field element's vec4s in a buffer (see `vec4s`), and a few sizes
//! of the group (`${LIMBS_X2}`, `${AFFINE_WORDS}`, the scalar load `${SCALAR}`); the
//! builder asserts none remain after substitution. Each group (`crate::curve`) gets its
//! own prelude and sizes from the same templates.

mod element;
pub mod glv;
mod karatsuba;
pub mod params;
mod points;
pub(crate) mod small;
pub(crate) mod stages;
mod tape;
pub mod unroll;
mod vec4s;

use crate::config::MulPath;
use crate::curve::GroupId;

const BIGINT: &str = include_str!("../../shaders/bigint.wgsl");
const MUL_WIDE64: &str = include_str!("../../shaders/mul_wide64.wgsl");
const MUL_PORTABLE32: &str = include_str!("../../shaders/mul_portable32.wgsl");
const FIELD: &str = include_str!("../../shaders/field.wgsl");
const FIELD29: &str = include_str!("../../shaders/field29.wgsl");
const FIELD29_WIDE: &str = include_str!("../../shaders/field29_wide.wgsl");
const FIELD29_MUL_WIDE: &str = include_str!("../../shaders/field29_mul_wide.wgsl");
const FQ_MUL_SUB_TWO: &str = include_str!("../../shaders/fq_mul_sub_two.wgsl");
const FIELD_LIMBS: &str = include_str!("../../shaders/field_limbs.wgsl");
const CURVE: &str = include_str!("../../shaders/curve.wgsl");
const CURVE_FORMULAS: &str = include_str!("../../shaders/curve_formulas.wgsl");
const CURVE_TAPE: &str = include_str!("../../shaders/curve_tape.wgsl");
const MSM_PARAMS: &str = include_str!("../../shaders/msm_params.wgsl");
const MSM_BINDINGS: &str = include_str!("../../shaders/msm_bindings.wgsl");
const MSM_FOLD_ARGS: &str = include_str!("../../shaders/msm_fold_args.wgsl");
const MSM_DECOMPOSE: &str = include_str!("../../shaders/msm_decompose.wgsl");
const MSM_SORT: &str = include_str!("../../shaders/msm_sort.wgsl");
const MSM_ACCUMULATE: &str = include_str!("../../shaders/msm_accumulate.wgsl");
const MSM_FOLD: &str = include_str!("../../shaders/msm_fold.wgsl");
const MSM_REDUCE: &str = include_str!("../../shaders/msm_reduce.wgsl");
const REDUCE_ADD_LANE: &str = include_str!("../../shaders/reduce_add_lane.wgsl");
const REDUCE_ADD_COOP: &str = include_str!("../../shaders/reduce_add_coop.wgsl");
const MSM_POINTS: &str = include_str!("../../shaders/msm_points.wgsl");
const MSM_POINT_WORDS: &str = include_str!("../../shaders/msm_point_words.wgsl");
const CHECK_BASES: &str = include_str!("../../shaders/check_bases.wgsl");
const EXPAND_BASES: &str = include_str!("../../shaders/expand_bases.wgsl");
const GLV: &str = include_str!("../../shaders/glv.wgsl");
const TEST_BINDINGS: &str = include_str!("../../shaders/test_bindings.wgsl");
const TEST_FIELD: &str = include_str!("../../shaders/test_field.wgsl");
const TEST_CURVE: &str = include_str!("../../shaders/test_curve.wgsl");
const FQ2: &str = include_str!("../../shaders/fq2.wgsl");
const FQ2_MUL: &str = include_str!("../../shaders/fq2_mul.wgsl");
const FQ2_MUL_WIDE: &str = include_str!("../../shaders/fq2_mul_wide.wgsl");
const TEST_FQ2: &str = include_str!("../../shaders/test_fq2.wgsl");
const TEST_G2: &str = include_str!("../../shaders/test_g2.wgsl");
const BENCH_ARITH: &str = include_str!("../../shaders/bench_arith.wgsl");

/// Which assembled shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderKind {
    /// All MSM stages (decompose, scan, scatter, accumulate, fold, reduce).
    Msm,
    /// The on-curve check of uploaded bases.
    CheckBases,
    /// The on-curve check of uploaded bases that also writes each base beside its image
    /// under the GLV endomorphism (the layout GLV passes read).
    ExpandBases,
    /// The fold stage's dispatch sizes (one tiny kernel, no field arithmetic).
    FoldArgs,
    /// Per-operation kernels for both fields.
    TestField,
    /// Per-operation kernels for the curve.
    TestCurve,
    /// Per-operation kernels for Fq2 = Fq\[u\] / (u^2 + 1) (the base field of G2).
    TestFq2,
    /// Per-operation kernels for the G2 curve (curve.wgsl over Fq2).
    TestG2,
    /// Throughput kernels (u32 multiply, field multiply, mixed addition).
    BenchArith,
}

impl ShaderKind {
    /// Every kind, for validation tests.
    pub const ALL: [ShaderKind; 9] = [
        ShaderKind::Msm,
        ShaderKind::CheckBases,
        ShaderKind::ExpandBases,
        ShaderKind::FoldArgs,
        ShaderKind::TestField,
        ShaderKind::TestCurve,
        ShaderKind::TestFq2,
        ShaderKind::TestG2,
        ShaderKind::BenchArith,
    ];

    /// Whether the shader does field arithmetic, so that its source (and pipelines)
    /// depend on the multiply path.
    pub fn uses_arithmetic(self) -> bool {
        self != ShaderKind::FoldArgs
    }

    /// Whether the shader computes on the group's own points (the MSM and the
    /// on-curve checks), so that a G2 group builds it over Fq2. The test and
    /// benchmark kernels are the curve's, the same for both of its groups.
    pub fn uses_curve(self) -> bool {
        matches!(
            self,
            ShaderKind::Msm | ShaderKind::CheckBases | ShaderKind::ExpandBases
        )
    }

    /// Whether `group` has this shader: every kind but [`ShaderKind::ExpandBases`] for
    /// a group without GLV ([`GroupId::has_glv`]; every supported group has it).
    pub fn exists_for(self, group: GroupId) -> bool {
        self != ShaderKind::ExpandBases || group.has_glv()
    }

    /// Entry points of this shader.
    pub fn entry_points(self) -> Vec<String> {
        match self {
            ShaderKind::Msm => stages::entry_points(),
            ShaderKind::CheckBases => vec!["check_bases".into()],
            ShaderKind::ExpandBases => vec!["expand_bases".into()],
            ShaderKind::FoldArgs => vec!["fold_args".into()],
            ShaderKind::TestField => ["fq", "fr"]
                .iter()
                .flat_map(|f| {
                    FIELD_TEST_OPS
                        .iter()
                        .map(move |op| format!("test_{f}_{op}"))
                })
                .collect(),
            ShaderKind::TestCurve => CURVE_TEST_OPS
                .iter()
                .map(|op| format!("test_curve_{op}"))
                .collect(),
            ShaderKind::TestFq2 => FQ2_TEST_OPS
                .iter()
                .map(|op| format!("test_fq2_{op}"))
                .collect(),
            ShaderKind::TestG2 => CURVE_TEST_OPS
                .iter()
                .map(|op| format!("test_g2_{op}"))
                .collect(),
            ShaderKind::BenchArith => ["bench_u32_mul", "bench_dot4", "bench_fq_mul", "bench_madd"]
                .map(String::from)
                .to_vec(),
        }
    }
}

/// Operations with a field test kernel (`test_{fq,fr}_{op}`).
pub const FIELD_TEST_OPS: [&str; 12] = [
    "add",
    "sub",
    "mul",
    "sqr",
    "mul_sub",
    "neg",
    "double",
    "inv",
    "to_mont",
    "from_mont",
    "eq",
    "chain",
];
/// Operations with an Fq2 test kernel (`test_fq2_{op}`).
pub const FQ2_TEST_OPS: [&str; 9] = [
    "add",
    "sub",
    "mul",
    "mul_unreduced",
    "mul_sub",
    "sqr",
    "neg",
    "double",
    "chain",
];
/// Operations with a curve test kernel (`test_curve_{op}`).
pub const CURVE_TEST_OPS: [&str; 6] = ["madd", "add", "double", "neg", "mul_small", "on_curve"];

/// The curve module (written over Fq; renamed for Fq2 by the caller): curve.wgsl with
/// its point formulas written out (curve_formulas.wgsl), or run by the register machine
/// of curve_tape.wgsl (`tape`) where `tape` is asked, with fused a b - c d steps
/// (`tape::fuse`, a second multiply site) where `fused`.
fn curve_module(tape: bool, fused: bool) -> String {
    if tape {
        let case = if fused {
            "case 3u: {\n                r = fq_mul_sub(a, b, reg[(step >> 20u) & 63u], reg[step >> 26u]);\n            }"
        } else {
            ""
        };
        [
            CURVE,
            &tape::wgsl(fused),
            &CURVE_TAPE.replace("${TAPE_MUL_SUB}", case),
        ]
        .join("\n")
    } else {
        [CURVE, CURVE_FORMULAS].join("\n")
    }
}

/// Fq2 over the Fq of `form`, with its multiply: Karatsuba with lazy reduction over the
/// radix-2^29 Fq (whose products are 64-bit columns that a sum or difference can take
/// before one reduction, field29_wide.wgsl), plain Karatsuba over the others.
fn fq2_module(form: FqForm) -> String {
    match form {
        FqForm::Radix29 => [FQ2, FQ2_MUL_WIDE].join("\n"),
        FqForm::Words | FqForm::Small => [FQ2, FQ2_MUL].join("\n"),
    }
}

/// `field.wgsl` (or another `${F}` template) instantiated for one field.
fn instantiate(template: &str, f: &str, fc: &str) -> String {
    template.replace("${FC}", fc).replace("${F}", f)
}

/// `field_limbs.wgsl` for Fq in `limbs` limbs of `bits` bits, with the prelude's
/// constants p, 2p, R mod p and R^2 mod p in that representation named by `consts`.
fn field_limbs(bits: u32, limbs: u32, consts: [&str; 4]) -> String {
    let [p, two_p, one, r2] = consts;
    FIELD_LIMBS
        .replace("${N}", &limbs.to_string())
        .replace("${B}", &bits.to_string())
        .replace("${MASK}", &format!("0x{:x}", (1u32 << bits) - 1))
        .replace("${P}", p)
        .replace("${TWO_P}", two_p)
        .replace("${ONE}", one)
        .replace("${R2}", r2)
}

/// How the Portable32 path holds Fq in registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Fq32 {
    /// Eight 32-bit words (`field.wgsl`), each 32x32-bit product built from four
    /// 16x16-bit ones: the least code, which SwiftShader compiles fastest.
    #[default]
    Words,
    /// Small limbs (`field_limbs.wgsl` and `small.rs`, [`params::SMALL_BITS`] bits each): one 32-bit
    /// multiply-add per limb product and no carries inside the multiply's rounds.
    Small,
}

/// The complete WGSL source of `kind` for the given multiply path (BN254 G1).
///
/// # Panics
/// If a template placeholder survives substitution (a bug in the shader sources, caught
/// by the naga validation test).
pub fn source(kind: ShaderKind, path: MulPath) -> String {
    source_variant(kind, path, unroll::Unroll::default(), Fq32::default())
}

/// [`source`] with an explicit unrolling mode.
///
/// # Panics
/// As [`source`].
pub fn source_with(kind: ShaderKind, path: MulPath, mode: unroll::Unroll) -> String {
    source_variant(kind, path, mode, Fq32::default())
}

/// [`source`] with an explicit unrolling mode and Portable32 Fq representation (`fq32`
/// plays no part on the Wide64 path).
///
/// # Panics
/// As [`source`].
pub fn source_variant(kind: ShaderKind, path: MulPath, mode: unroll::Unroll, fq32: Fq32) -> String {
    source_for(GroupId::Bn254G1, kind, path, mode, fq32)
}

/// The Fq representation `group` gets on `path` when the tuning asks for `fq32`: radix
/// 2^29 on Wide64 for every group; on Portable32 32-bit words, or the small limbs where
/// asked and the group has them ([`GroupId::has_small_limbs`]: a 256-bit Fq only).
pub fn fq_form(group: GroupId, path: MulPath, fq32: Fq32) -> FqForm {
    match path {
        MulPath::Wide64 => FqForm::Radix29,
        MulPath::Portable32 if fq32 == Fq32::Small && group.has_small_limbs() => FqForm::Small,
        MulPath::Portable32 => FqForm::Words,
    }
}

/// How a shader holds Fq in registers (see [`fq_form`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FqForm {
    /// 32-bit words (`field.wgsl`), multiplied through the path's `mac`.
    Words,
    /// Limbs of 29 or 30 bits with 64-bit column sums (`field29.wgsl`, Wide64;
    /// `params::radix_bits`: 9 of 29 bits for BN254, 13 of 30 for BLS12-381 G1, 14 of 29
    /// for BLS12-381's Fq2).
    Radix29,
    /// Small limbs with 32-bit column sums (`field_limbs.wgsl` and `small.rs`, Portable32, BN254).
    Small,
}

/// The complete WGSL source of `kind` for `group` on the given multiply path, unrolling
/// mode and Portable32 Fq representation (see [`fq_form`] for what a group gets), with
/// reduction trees of [`stages::REDUCE_WG`] points.
///
/// # Panics
/// If a template placeholder survives substitution (a bug in the shader sources, caught
/// by the naga validation test), or for a kind the group does not have
/// ([`ShaderKind::exists_for`]).
pub fn source_for(
    group: GroupId,
    kind: ShaderKind,
    path: MulPath,
    mode: unroll::Unroll,
    fq32: Fq32,
) -> String {
    source_for_device(group, kind, path, mode, fq32, u32::MAX, false)
}

/// [`source_for`] for a device with `workgroup_storage` bytes of workgroup memory,
/// `software` where it runs on the CPU: reduction trees of [`stages::reduce_wg`] points
/// (the plan's [`reduce_wg`](crate::msm::plan::Plan::reduce_wg) is the same), their
/// additions shared by four warps only on GPUs (`stages::reduce_coop`).
///
/// # Panics
/// As [`source_for`].
pub fn source_for_device(
    group: GroupId,
    kind: ShaderKind,
    path: MulPath,
    mode: unroll::Unroll,
    fq32: Fq32,
    workgroup_storage: u32,
    software: bool,
) -> String {
    if !kind.uses_arithmetic() {
        // The same source on either multiply path.
        return [MSM_PARAMS, MSM_FOLD_ARGS].join("\n");
    }
    let spec = group.spec();
    let mut parts: Vec<String> = vec![params::prelude_for(spec)];
    // The prelude declares `Big`; bigint.wgsl declares it too for standalone reading.
    parts.push(BIGINT.replace("alias Big = array<u32, LIMBS>;", ""));
    parts.push(
        match path {
            MulPath::Wide64 => MUL_WIDE64,
            MulPath::Portable32 => MUL_PORTABLE32,
        }
        .to_string(),
    );
    // Fq, the curve's field, is the hot one: radix 2^29 (2^30 for BLS12-381 G1) with
    // 64-bit column sums where 64-bit products exist, otherwise 32-bit words or small
    // limbs with 32-bit column sums. Fr only converts scalars and keeps 32-bit words.
    let form = fq_form(group, path, fq32);
    // The group's own curve over Fq2 (G2's MSM and on-curve check); the test and
    // benchmark kernels of either group of a curve are the same (G1's curve, and the
    // curve over Fq2 for TestG2).
    let g2 = spec.degree == 2;
    let over_fq2 = kind == ShaderKind::TestG2 || (g2 && kind.uses_curve());
    // Bits of the Wide64 path's limbs (`params::radix_bits`).
    let radix_bits = params::radix_bits(spec.limbs(), over_fq2 || kind == ShaderKind::TestFq2);
    match form {
        FqForm::Radix29 => {
            parts.push(params::radix_prelude_for(spec, radix_bits));
            let n = params::radix_limbs(spec.limbs(), radix_bits);
            parts.push(field_limbs(
                radix_bits,
                n,
                ["FQ_P29", "FQ_2P29", "FQ_ONE29", "FQ_R2_29"],
            ));
            let field = params::field29(FIELD29, spec.limbs(), radix_bits);
            parts.push(field.replace(&format!("alias Fq = array<u32, {n}>;"), ""));
            if radix_bits == params::RADIX_BITS {
                parts.push(params::field29(FIELD29_WIDE, spec.limbs(), radix_bits));
                // Where the shader multiplies over Fq2 (three wide products a multiply)
                // the wide product is Karatsuba's (src/shader/karatsuba.rs); the G1
                // kernels keep the schoolbook one (their one wide product is
                // `fq_mul_sub`'s), whose fewer live columns let more of their workgroups
                // run at once.
                if over_fq2 || kind == ShaderKind::TestFq2 {
                    parts.push(karatsuba::mul_wide(n));
                } else {
                    parts.push(params::field29(FIELD29_MUL_WIDE, spec.limbs(), radix_bits));
                }
            } else {
                // 30-bit limbs: a wide product's columns have no room for a second
                // product's, so a b - c d is two Montgomery products.
                parts.push(FQ_MUL_SUB_TWO.to_string());
            }
        }
        FqForm::Words => {
            parts.push("alias Fq = Big;".to_string());
            parts.push(instantiate(FIELD, "fq", "FQ"));
        }
        FqForm::Small => {
            parts.push(params::small_prelude());
            parts.push(field_limbs(
                params::SMALL_BITS,
                params::SMALL_LIMBS,
                ["FQ_PS", "FQ_2PS", "FQ_ONES", "FQ_R2S"],
            ));
            parts.push(small::mul_and_sqr(mode));
        }
    }
    parts.push(instantiate(FIELD, "fr", "FR"));
    // The modules that move points between storage and registers, for the group's
    // element (G2: Fq2 words, see `element::fq2_storage`).
    let storage = |m: &str| {
        if g2 {
            element::fq2_storage(m, 2 * spec.limbs() / 4)
        } else {
            m.to_string()
        }
    };
    // The point formulas run on the register machine in the group's own kernels for
    // every group but BN254 G1 (`GroupId::formulas_on_register_machine`: it holds their
    // values in fewer registers) and over Fq2 in `Rolled` builds (G2 on software
    // adapters and GL, `Tuning::g2_unroll`: those drivers build it in bounded time and
    // memory where G2's written-out formulas are not); BN254 G1 keeps the written-out
    // formulas, which run faster (docs/drivers.md, docs/curves.md).
    let tape = (group.formulas_on_register_machine() && (kind.uses_curve() || over_fq2))
        || (mode == unroll::Unroll::Rolled && over_fq2);
    // Fused steps over Fq where its a b - c d takes one reduction (radix 2^29, small
    // limbs) or is one step of two products (30-bit limbs: one step's loads and store
    // instead of three steps', which bound the machine more than its multiplies), and the
    // build is not `Rolled` (GL's: a second multiply site costs its compile time). Not
    // over Fq2, where a fused a b - c d needs six wide products and two reductions live
    // at once and G2 runs slower with it (benchmark log v38).
    let fused = mode != unroll::Unroll::Rolled && !over_fq2 && form != FqForm::Words;
    let curve = curve_module(tape, fused);
    if over_fq2 {
        // The curve over Fq2: G2's formulas are G1's with the element renamed.
        parts.push(fq2_module(form));
        parts.push(params::g2_b(spec));
        parts.push(element::over(&curve, "fq2", "Fq2", "fq2_curve_b()"));
        if g2 && kind.uses_curve() {
            parts.push(params::fq2_storage(spec));
        }
    } else {
        parts.push(curve);
    }
    match kind {
        ShaderKind::Msm => {
            parts.push(MSM_PARAMS.to_string());
            parts.push(storage(&MSM_BINDINGS.replace(
                "${POINT_VEC4S}",
                &(group.point_bytes() / 16).to_string(),
            )));
            // Point loads and stores for the per-pass scratch and the bucket totals: on
            // the Wide64 path a G1 group's points as its registers' limbs, else as words.
            for (buf, name) in [("scratch", "point"), ("totals", "total")] {
                let template =
                    |t: &str| storage(&t.replace("${BUF}", buf).replace("${NAME}", name));
                parts.push(if !g2 && form == FqForm::Radix29 {
                    points::limb_points(buf, name, params::radix_limbs(spec.limbs(), radix_bits))
                } else {
                    template(MSM_POINTS)
                });
                parts.push(template(MSM_POINT_WORDS));
            }
            use stages::{BIN_LOG2, BIN_MAX_LOG2, BIN_PER, BIN_TILES_WG, SCAN_PER, SCAN_WG};
            if spec.glv.is_some() {
                parts.push(glv::wgsl_for(spec));
                parts.push(GLV.replace("${LIMBS_X2}", &(2 * spec.limbs()).to_string()));
            } else {
                parts.push(glv::NO_GLV_WGSL.to_string());
            }
            parts.push(MSM_DECOMPOSE.replace("${SCALAR}", &params::scalar_load(spec)));
            parts.push(
                MSM_SORT
                    .replace("${SCAN_WG}", &SCAN_WG.to_string())
                    .replace("${SCAN_PER}", &SCAN_PER.to_string())
                    .replace("${BIN_LOG2}", &BIN_LOG2.to_string())
                    .replace("${BIN_MAX_LOG2}", &BIN_MAX_LOG2.to_string())
                    .replace("${BIN_PER}", &BIN_PER.to_string())
                    .replace("${BIN_TILES_WG}", &BIN_TILES_WG.to_string()),
            );
            for m in [MSM_ACCUMULATE, MSM_FOLD] {
                parts.push(m.to_string());
            }
            let wg = stages::reduce_wg(group, workgroup_storage);
            parts.push(storage(
                &MSM_REDUCE
                    .replace("${REDUCE_WG_LOG2}", &wg.trailing_zeros().to_string())
                    .replace("${REDUCE_WG}", &wg.to_string()),
            ));
            parts.push(
                if stages::reduce_coop(group, form, wg, workgroup_storage, software) {
                    REDUCE_ADD_COOP
                } else {
                    REDUCE_ADD_LANE
                }
                .to_string(),
            );
        }
        ShaderKind::CheckBases => parts.push(storage(CHECK_BASES)),
        ShaderKind::ExpandBases => {
            parts.push(glv::beta_wgsl_for(spec));
            parts.push(glv::image_x_wgsl(g2).to_string());
            parts.push(storage(CHECK_BASES));
            parts.push(storage(EXPAND_BASES));
        }
        // Returned above.
        ShaderKind::FoldArgs => {}
        ShaderKind::TestField => {
            parts.push(TEST_BINDINGS.to_string());
            parts.push(instantiate(TEST_FIELD, "fq", "FQ"));
            parts.push(instantiate(TEST_FIELD, "fr", "FR"));
        }
        ShaderKind::TestCurve => {
            parts.push(TEST_BINDINGS.to_string());
            parts.push(TEST_CURVE.replace("${AFFINE_WORDS}", &(2 * spec.limbs()).to_string()));
        }
        ShaderKind::TestFq2 => {
            parts.push(TEST_BINDINGS.to_string());
            parts.push(fq2_module(form));
            parts.push(TEST_FQ2.to_string());
        }
        ShaderKind::TestG2 => {
            parts.push(TEST_BINDINGS.to_string());
            parts.push(TEST_G2.to_string());
        }
        ShaderKind::BenchArith => {
            parts.push(TEST_BINDINGS.to_string());
            parts.push(BENCH_ARITH.to_string());
        }
    }
    let src = vec4s::expand(&parts.join("\n"), spec.limbs() / 4);
    let src = unroll::expand(&src, spec.limbs(), mode);
    assert!(
        !src.contains("${"),
        "unsubstituted placeholder in {kind:?} shader"
    );
    src
}
