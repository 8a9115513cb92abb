//! GPU parity tests: every device `Device::all()` opens, both multiply paths, against
//! arkworks. One test binary, so the devices are opened once and each device's compiled
//! pipelines (cached per device and path) serve every test.
//!
//! Test names carry the multiply path (`wide64` / `portable32`); the harness (devices,
//! seeds, forced paths) is in `common/`.
//!
//! Run with `cargo test --release --test gpu` (debug builds are very slow for the
//! host-side arkworks references). On lavapipe, compiling a shader takes about a minute
//! per multiply path, which dominates the runtime: measured on 2 shared cores with cold
//! pipeline and Mesa caches, 7-8.5 minutes in all, of which ~6 minutes is compiling the
//! MSM (67 s wide64, 107 s portable32) and curve test shaders (~85 s each); compiles on
//! one device are serialised by its kernel cache.

use ark_bn254::{Fq, Fr, G1Affine, G1Projective};
use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::{AdditiveGroup, BigInt, Field as _, Fp, FpConfig, PrimeField, UniformRand};
use ark_std::rand::Rng;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::OnceLock;
use wgpu_msm::msm::encode::field_words;
use wgpu_msm::opcheck::{self, affine_words, Field, AFFINE_WORDS, FIELD_WORDS};
use wgpu_msm::shader::params::limbs32;
use wgpu_msm::shader::Fq32;
use wgpu_msm::testing::{
    naive_msm, parity_bases, parity_expected, parity_inputs, random_bases, random_scalars,
    PARITY_BASES,
};
use wgpu_msm::{Arithmetic, Error, MsmConfig, MulPath};

mod common;
use common::*;

// ---------------------------------------------------------------------------------------
// Field operations
// ---------------------------------------------------------------------------------------

/// An element from its raw Montgomery limbs (must be below the modulus).
fn raw<P: FpConfig<4>>(limbs: BigInt<4>) -> Fp<P, 4> {
    assert!(limbs < P::MODULUS);
    Fp(limbs, PhantomData)
}

fn sub_small(mut b: BigInt<4>, k: u64) -> BigInt<4> {
    use ark_ff::BigInteger;
    b.sub_with_borrow(&BigInt::from(k));
    b
}

/// Edge values: small and near-modulus values both as values and as Montgomery words,
/// R mod p (the Montgomery form of 1) and R^2 mod p.
fn field_edges<P: FpConfig<4>>() -> Vec<Fp<P, 4>> {
    type F<P> = Fp<P, 4>;
    let p = P::MODULUS;
    let half = {
        use ark_ff::BigInteger;
        let mut h = p;
        h.div2();
        h
    };
    let from = |b: BigInt<4>| F::<P>::from_bigint(b).expect("below p");
    let mut v = vec![
        F::<P>::ZERO,
        F::<P>::ONE,
        F::<P>::from(2u64),
        F::<P>::from(3u64),
        -F::<P>::ONE,        // p - 1
        -F::<P>::from(2u64), // p - 2
        from(half),          // (p - 1) / 2
        from(half) + F::<P>::ONE,
        from(F::<P>::ONE.0),          // value R mod p
        from(F::<P>::ONE.0).square(), // value R^2 mod p
        F::<P>::from(u64::MAX),
        F::<P>::from(1u128 << 64),
        // Montgomery words near the edges.
        raw::<P>(BigInt::from(1u64)),
        raw::<P>(BigInt::from(u32::MAX as u64)),
        raw::<P>(BigInt([0, 1, 0, 0])),
        raw::<P>(sub_small(p, 1)),
        raw::<P>(sub_small(p, 2)),
        raw::<P>(sub_small(p, 1 << 32)),
        raw::<P>(half),
        raw::<P>(BigInt([u64::MAX, u64::MAX, u64::MAX, p.0[3] - 1])),
        raw::<P>(BigInt([0, 0, 0, 1 << 61])), // 2^253 < p for both BN254 fields
    ];
    v.dedup();
    v
}

fn words_eq_msg(what: &str, i: usize, ins: &str, got: &[u32], want: &[u32]) -> String {
    format!("{what}: element {i} ({ins}): got {got:08x?}, want {want:08x?}")
}

/// Runs `op` and compares every output with `want`; reports the first mismatches.
fn compare_field(
    ctx: &Ctx,
    field: Field,
    op: &str,
    a: &[[u32; 8]],
    b: &[[u32; 8]],
    want: &[[u32; 8]],
) {
    let got = opcheck::field_op(ctx.dev, ctx.path, field, op, a, b)
        .unwrap_or_else(|e| panic!("{} {}_{op} failed: {e}", ctx.tag(), field.name()));
    assert_eq!(
        got.len(),
        want.len(),
        "{} {}_{op}: output length",
        ctx.tag(),
        field.name()
    );
    let bad: Vec<String> = (0..want.len())
        .filter(|&i| got[i] != want[i])
        .take(4)
        .map(|i| {
            let ins = format!(
                "a = {:08x?}, b = {:08x?}",
                a[i],
                b.get(i).unwrap_or(&[0; 8])
            );
            words_eq_msg(
                &format!("{}_{op}", field.name()),
                i,
                &ins,
                &got[i],
                &want[i],
            )
        })
        .collect();
    let nbad = (0..want.len()).filter(|&i| got[i] != want[i]).count();
    assert!(
        nbad == 0,
        "{} {nbad} of {} wrong:\n{}",
        ctx.tag(),
        want.len(),
        bad.join("\n")
    );
}

fn check_field<P: FpConfig<4>>(ctx: &mut Ctx, field: Field) {
    type F<P> = Fp<P, 4>;
    let edges = field_edges::<P>();
    let mut xs: Vec<F<P>> = edges.clone();
    xs.extend((0..512).map(|_| F::<P>::rand(&mut ctx.rng)));
    // Pairs: every edge with every edge, random with random, edges with random, x with x.
    let mut pairs: Vec<(F<P>, F<P>)> = Vec::new();
    for &e in &edges {
        for &f in &edges {
            pairs.push((e, f));
        }
        pairs.push((e, F::<P>::rand(&mut ctx.rng)));
        pairs.push((F::<P>::rand(&mut ctx.rng), e));
    }
    for _ in 0..512 {
        pairs.push((F::<P>::rand(&mut ctx.rng), F::<P>::rand(&mut ctx.rng)));
    }
    for &x in &xs {
        pairs.push((x, x));
    }
    let w = |x: &F<P>| field_words(x);
    let pa: Vec<[u32; 8]> = pairs.iter().map(|(a, _)| w(a)).collect();
    let pb: Vec<[u32; 8]> = pairs.iter().map(|(_, b)| w(b)).collect();
    let xa: Vec<[u32; 8]> = xs.iter().map(w).collect();
    let bin = |f: &dyn Fn(F<P>, F<P>) -> F<P>| -> Vec<[u32; 8]> {
        pairs.iter().map(|&(a, b)| w(&f(a, b))).collect()
    };
    let un = |f: &dyn Fn(F<P>) -> F<P>| -> Vec<[u32; 8]> { xs.iter().map(|&a| w(&f(a))).collect() };

    compare_field(ctx, field, "add", &pa, &pb, &bin(&|a, b| a + b));
    compare_field(ctx, field, "sub", &pa, &pb, &bin(&|a, b| a - b));
    compare_field(ctx, field, "mul", &pa, &pb, &bin(&|a, b| a * b));
    compare_field(ctx, field, "sqr", &xa, &[], &un(&|a| a.square()));
    compare_field(
        ctx,
        field,
        "mul_sub",
        &pa,
        &pb,
        &bin(&|a, b| a * b - b * a.square()),
    );
    compare_field(ctx, field, "neg", &xa, &[], &un(&|a| -a));
    compare_field(ctx, field, "double", &xa, &[], &un(&|a| a.double()));
    // The device inverts by Fermat (a^(p-2)), so 0 maps to 0.
    compare_field(
        ctx,
        field,
        "inv",
        &xa,
        &[],
        &un(&|a| a.inverse().unwrap_or(F::<P>::ZERO)),
    );
    let canon: Vec<[u32; 8]> = xs.iter().map(|a| limbs32(&a.into_bigint())).collect();
    compare_field(ctx, field, "to_mont", &canon, &[], &xa);
    compare_field(ctx, field, "from_mont", &xa, &[], &canon);
    let eq: Vec<[u32; 8]> = pairs
        .iter()
        .map(|(a, b)| [u32::from(a == b), 0, 0, 0, 0, 0, 0, 0])
        .collect();
    assert!(eq.iter().any(|e| e[0] == 1) && eq.iter().any(|e| e[0] == 0));
    compare_field(ctx, field, "eq", &pa, &pb, &eq);
    compare_field(
        ctx,
        field,
        "chain",
        &pa,
        &pb,
        &bin(&|a, b| (a + b) * (a - b) - (a * b).double() + (-a) * (-b)),
    );
}

fn field_ops(ctx: &mut Ctx) {
    check_field::<ark_ff::MontBackend<ark_bn254::FqConfig, 4>>(ctx, Field::Fq);
    check_field::<ark_ff::MontBackend<ark_bn254::FrConfig, 4>>(ctx, Field::Fr);
    // The runner refuses what it cannot run rather than panicking.
    let r = opcheck::field_op(ctx.dev, ctx.path, Field::Fq, "nope", &[[0; 8]], &[]);
    assert!(matches!(r, Err(Error::InvalidConfig(_))), "{r:?}");
    let r = opcheck::field_op(
        ctx.dev,
        ctx.path,
        Field::Fq,
        "add",
        &[[0; 8]; 2],
        &[[0; 8]; 3],
    );
    assert!(matches!(r, Err(Error::LengthMismatch { .. })), "{r:?}");
    assert!(
        opcheck::field_op(ctx.dev, ctx.path, Field::Fr, "add", &[], &[])
            .unwrap()
            .is_empty()
    );
}

#[test]
fn field_ops_wide64() {
    for_each_device("field_ops_wide64", MulPath::Wide64, field_ops);
}

#[test]
fn field_ops_portable32() {
    for_each_device("field_ops_portable32", MulPath::Portable32, |ctx| {
        // Both Fq representations, whichever the device picks.
        with_fq32(ctx, Fq32::Words, field_ops);
        with_fq32(ctx, Fq32::Small, field_ops);
    });
}

// ---------------------------------------------------------------------------------------
// Curve operations
// ---------------------------------------------------------------------------------------

fn compare_points(ctx: &Ctx, op: &str, what: &[String], got: &[G1Affine], want: &[G1Affine]) {
    assert_eq!(
        got.len(),
        want.len(),
        "{} curve_{op}: output length",
        ctx.tag()
    );
    let bad: Vec<usize> = (0..want.len()).filter(|&i| got[i] != want[i]).collect();
    let detail: Vec<String> = bad
        .iter()
        .take(4)
        .map(|&i| format!("  #{i} {}: got {}, want {}", what[i], got[i], want[i]))
        .collect();
    assert!(
        bad.is_empty(),
        "{} curve_{op}: {} of {} wrong:\n{}",
        ctx.tag(),
        bad.len(),
        want.len(),
        detail.join("\n")
    );
}

fn curve_ops(ctx: &mut Ctx) {
    let seed = ctx.next_seed();
    let pts = random_bases(48, 48, seed);
    let inf = G1Affine::identity();
    let g = G1Affine::generator();
    let mut singles: Vec<(String, G1Affine)> = vec![
        ("infinity".into(), inf),
        ("generator".into(), g),
        ("-generator".into(), -g),
    ];
    singles.extend(
        pts.iter()
            .enumerate()
            .map(|(i, p)| (format!("random {i}"), *p)),
    );

    // Binary cases: random pairs, P + P, P + (-P), -P + P, infinity on either side.
    let mut pairs: Vec<(String, G1Affine, G1Affine)> = vec![
        ("inf + inf".into(), inf, inf),
        ("inf + G".into(), inf, g),
        ("G + inf".into(), g, inf),
        ("G + G".into(), g, g),
        ("G + -G".into(), g, -g),
        ("G + 2G".into(), g, (g + g).into_affine()),
    ];
    for i in 0..16 {
        let (p, q) = (pts[i], pts[i + 16]);
        pairs.push((format!("P{i} + Q{i}"), p, q));
        pairs.push((format!("P{i} + P{i}"), p, p));
        pairs.push((format!("P{i} + -P{i}"), p, -p));
        pairs.push((format!("-P{i} + P{i}"), -p, p));
        pairs.push((format!("P{i} + inf"), p, inf));
        pairs.push((format!("inf + P{i}"), inf, p));
    }
    let names: Vec<String> = pairs.iter().map(|(n, _, _)| n.clone()).collect();
    let pa: Vec<G1Affine> = pairs.iter().map(|(_, a, _)| *a).collect();
    let pb: Vec<[u32; AFFINE_WORDS]> = pairs.iter().map(|(_, _, b)| affine_words(b)).collect();
    let sums: Vec<G1Affine> = pairs
        .iter()
        .map(|(_, a, b)| (*a + *b).into_affine())
        .collect();
    assert!(sums.iter().any(|s| s.is_zero()) && sums.iter().any(|s| !s.is_zero()));
    for op in ["madd", "add"] {
        let got = opcheck::curve_op(ctx.dev, ctx.path, op, &pa, &pb)
            .unwrap_or_else(|e| panic!("{} curve_{op}: {e}", ctx.tag()));
        compare_points(ctx, op, &names, &got, &sums);
    }

    let names: Vec<String> = singles.iter().map(|(n, _)| n.clone()).collect();
    let xs: Vec<G1Affine> = singles.iter().map(|(_, p)| *p).collect();
    type UnaryRef = fn(&G1Affine) -> G1Affine;
    let unary: [(&str, UnaryRef); 2] = [("double", |p| (*p + *p).into_affine()), ("neg", |p| -*p)];
    for (op, f) in unary {
        let want: Vec<G1Affine> = xs.iter().map(f).collect();
        let got = opcheck::curve_op(ctx.dev, ctx.path, op, &xs, &[])
            .unwrap_or_else(|e| panic!("{} curve_{op}: {e}", ctx.tag()));
        compare_points(ctx, op, &names, &got, &want);
    }

    // mul_small: k from word 0 of b, across the u32 range.
    let mut ks: Vec<u32> = vec![
        0,
        1,
        2,
        3,
        4,
        5,
        7,
        8,
        255,
        256,
        65535,
        65536,
        u32::MAX,
        1 << 31,
    ];
    ks.extend((0..8).map(|_| ctx.rng.gen::<u32>()));
    let mut ma = Vec::new();
    let mut mb = Vec::new();
    let mut mnames = Vec::new();
    for (i, &k) in ks.iter().enumerate() {
        for (name, p) in [("inf", inf), ("G", g), ("P", pts[i % pts.len()])] {
            ma.push(p);
            let mut b = [0u32; AFFINE_WORDS];
            b[0] = k;
            mb.push(b);
            mnames.push(format!("{k} * {name}"));
        }
    }
    let want: Vec<G1Affine> = ma
        .iter()
        .zip(&mb)
        .map(|(p, b)| (*p * Fr::from(b[0])).into_affine())
        .collect();
    let got = opcheck::curve_op(ctx.dev, ctx.path, "mul_small", &ma, &mb)
        .unwrap_or_else(|e| panic!("{} curve_mul_small: {e}", ctx.tag()));
    compare_points(ctx, "mul_small", &mnames, &got, &want);

    // on_curve: valid points, infinity as (0, 0), and points off the curve.
    let p = pts[0];
    let off = |x: Fq, y: Fq| G1Affine::new_unchecked(x, y);
    let cases: Vec<(&str, [u32; AFFINE_WORDS], bool)> = vec![
        ("P", affine_words(&p), true),
        ("-P", affine_words(&-p), true),
        ("G", affine_words(&g), true),
        ("(0, 0) = infinity", [0; AFFINE_WORDS], true),
        ("(x, y + 1)", affine_words(&off(p.x, p.y + Fq::ONE)), false),
        ("(x + 1, y)", affine_words(&off(p.x + Fq::ONE, p.y)), false),
        ("(x, 0)", affine_words(&off(p.x, Fq::ZERO)), false),
        ("(0, y)", affine_words(&off(Fq::ZERO, p.y)), false),
        ("(0, 1)", affine_words(&off(Fq::ZERO, Fq::ONE)), false),
        (
            "(1, 2) = generator",
            affine_words(&off(Fq::ONE, Fq::from(2u64))),
            true,
        ),
        (
            "(0, 3) (b = 3: 9 != 3)",
            affine_words(&off(Fq::ZERO, Fq::from(3u64))),
            false,
        ),
        (
            "(-1, 2)",
            affine_words(&off(-Fq::ONE, Fq::from(2u64))),
            false,
        ),
    ];
    for (name, w, want) in &cases {
        // Cross-check the expectation with arkworks, except the (0, 0) encoding.
        if w.iter().any(|&x| x != 0) {
            let x = wgpu_msm::msm::encode::field_from_words(&w[..FIELD_WORDS]);
            let y = wgpu_msm::msm::encode::field_from_words(&w[FIELD_WORDS..]);
            assert_eq!(
                G1Affine::new_unchecked(x, y).is_on_curve(),
                *want,
                "expectation of {name}"
            );
        }
    }
    let a: Vec<[u32; AFFINE_WORDS]> = cases.iter().map(|c| c.1).collect();
    let got = opcheck::curve_op_words(ctx.dev, ctx.path, "on_curve", &a, &[])
        .unwrap_or_else(|e| panic!("{} curve_on_curve: {e}", ctx.tag()));
    for ((name, _, want), g) in cases.iter().zip(&got) {
        assert_eq!(g[0], u32::from(*want), "{} on_curve({name})", ctx.tag());
        assert!(
            g[1..].iter().all(|&x| x == 0),
            "{} on_curve({name}) wrote more than word 0",
            ctx.tag()
        );
    }
}

#[test]
fn curve_ops_wide64() {
    for_each_device("curve_ops_wide64", MulPath::Wide64, curve_ops);
}

#[test]
fn curve_ops_portable32() {
    for_each_device("curve_ops_portable32", MulPath::Portable32, |ctx| {
        // Both Fq representations, whichever the device picks.
        with_fq32(ctx, Fq32::Words, curve_ops);
        with_fq32(ctx, Fq32::Small, curve_ops);
    });
}

// ---------------------------------------------------------------------------------------
// MSM parity
// ---------------------------------------------------------------------------------------

/// MSM on the device against arkworks' MSM and the naive sum.
fn check_msm(ctx: &Ctx, label: &str, bases: &[G1Affine], scalars: &[Fr], cfg: &MsmConfig) {
    let got = ctx
        .dev
        .msm(bases, scalars, cfg)
        .unwrap_or_else(|e| panic!("{} {label} (n = {}, {cfg:?}): {e}", ctx.tag(), bases.len()));
    let ark = G1Projective::msm(bases, scalars).expect("equal lengths");
    let naive = naive_msm(bases, scalars);
    assert_eq!(ark, naive, "{} {label}: the references disagree", ctx.tag());
    assert!(
        got == ark,
        "{} {label} (n = {}, {cfg:?}): got {}, want {}",
        ctx.tag(),
        bases.len(),
        got.into_affine(),
        ark.into_affine()
    );
}

fn msm_random_sizes(ctx: &mut Ctx) {
    let cfg = ctx.cfg();
    for n in [0usize, 1, 2, 3, 5, 100, 1000, 4097] {
        let (sb, ss) = (ctx.next_seed(), ctx.next_seed());
        let bases = random_bases(n, n, sb);
        let scalars = random_scalars(n, ss);
        check_msm(ctx, &format!("random n = {n}"), &bases, &scalars, &cfg);
    }
}

/// Both scalar treatments: GLV halves (the default) and whole scalars (`glv:
/// Some(false)`), one-shot and over resident bases stored expanded (GLV, or whole
/// scalars over the expanded layout) or plain; and the split's edge scalars.
fn msm_glv_and_whole(ctx: &mut Ctx) {
    let whole = MsmConfig {
        glv: Some(false),
        ..ctx.cfg()
    };
    let glv = MsmConfig {
        glv: Some(true),
        ..ctx.cfg()
    };
    let n = 3000;
    let bases = random_bases(n, n, ctx.next_seed());
    let mut scalars = random_scalars(n, ctx.next_seed());
    let edges = wgpu_msm::shader::glv::edge_scalars();
    scalars[..edges.len()].copy_from_slice(&edges);
    for (label, cfg) in [("whole scalars", &whole), ("GLV", &glv)] {
        check_msm(ctx, &format!("{label}, one-shot"), &bases, &scalars, cfg);
        let edge_bases = &bases[..edges.len()];
        check_msm(
            ctx,
            &format!("{label}, edge scalars"),
            edge_bases,
            &edges,
            cfg,
        );
    }
    let want = G1Projective::msm(&bases, &scalars).expect("equal lengths");
    let expanded = ctx
        .dev
        .upload_bases_with(&bases, &glv)
        .expect("upload expanded");
    let plain = ctx
        .dev
        .upload_bases_with(&bases, &whole)
        .expect("upload plain");
    assert!(
        expanded.expanded() && !plain.expanded(),
        "{} storage",
        ctx.tag()
    );
    assert_eq!(expanded.device_bytes(), 2 * plain.device_bytes());
    for (label, srs, cfg) in [
        ("GLV over expanded bases", &expanded, &glv),
        ("whole scalars over expanded bases", &expanded, &whole),
        ("whole scalars over plain bases", &plain, &whole),
        ("GLV asked over plain bases", &plain, &glv),
    ] {
        let got = ctx
            .dev
            .msm_with(srs, &scalars, cfg)
            .unwrap_or_else(|e| panic!("{} {label}: {e}", ctx.tag()));
        assert!(got == want, "{} {label}", ctx.tag());
    }
}

#[test]
fn msm_glv_and_whole_wide64() {
    for_each_device(
        "msm_glv_and_whole_wide64",
        MulPath::Wide64,
        msm_glv_and_whole,
    );
}

#[test]
fn msm_glv_and_whole_portable32() {
    for_each_device(
        "msm_glv_and_whole_portable32",
        MulPath::Portable32,
        msm_glv_and_whole,
    );
}

#[test]
fn msm_random_sizes_wide64() {
    for_each_device("msm_random_sizes_wide64", MulPath::Wide64, msm_random_sizes);
}

#[test]
fn msm_random_sizes_portable32() {
    for_each_device(
        "msm_random_sizes_portable32",
        MulPath::Portable32,
        msm_random_sizes,
    );
}

fn msm_adversarial(ctx: &mut Ctx) {
    let cfg = ctx.cfg();
    let minus_one = -Fr::ONE;
    let rand_fr = |ctx: &mut Ctx| Fr::rand(&mut ctx.rng);

    let bases = random_bases(3000, 3000, ctx.next_seed());
    let b = |n: usize| &bases[..n];

    check_msm(ctx, "all-zero scalars", b(500), &vec![Fr::ZERO; 500], &cfg);
    check_msm(ctx, "r - 1 scalars", b(500), &vec![minus_one; 500], &cfg);
    let s = rand_fr(ctx);
    check_msm(
        ctx,
        "all scalars equal (one hot bucket)",
        b(3000),
        &vec![s; 3000],
        &cfg,
    );
    let few: Vec<Fr> = (0..4).map(|_| rand_fr(ctx)).collect();
    let scalars: Vec<Fr> = (0..2000).map(|i| few[(i * 7 + i / 3) % 4]).collect();
    check_msm(ctx, "4 distinct scalars", b(2000), &scalars, &cfg);
    let one_hot: Vec<Fr> = (0..1000)
        .map(|i| if i == 617 { rand_fr(ctx) } else { Fr::ZERO })
        .collect();
    check_msm(ctx, "one nonzero scalar", b(1000), &one_hot, &cfg);

    // Scalars with every bit set below 2^253 (carries through every signed digit), and
    // scalars just below r.
    let ones = Fr::from_bigint(BigInt([u64::MAX, u64::MAX, u64::MAX, (1 << 61) - 1])).unwrap();
    check_msm(ctx, "2^253 - 1 scalars", b(700), &vec![ones; 700], &cfg);
    let high: Vec<Fr> = (0..700)
        .map(|_| minus_one - Fr::from(ctx.rng.gen::<u16>()))
        .collect();
    check_msm(ctx, "scalars in [r - 2^16, r)", b(700), &high, &cfg);
    let small: Vec<Fr> = (0..1000).map(|_| Fr::from(ctx.rng.gen::<u16>())).collect();
    check_msm(ctx, "scalars < 2^16", b(1000), &small, &cfg);

    let rep = random_bases(1500, 3, ctx.next_seed());
    let scalars = random_scalars(1500, ctx.next_seed());
    check_msm(ctx, "3 distinct bases repeated", &rep, &scalars, &cfg);
    let same: Vec<G1Affine> = vec![bases[0]; 1200];
    let sc = random_scalars(1200, ctx.next_seed());
    check_msm(ctx, "one base repeated", &same, &sc, &cfg);

    // P and -P together: random scalars, and equal scalars (the sum cancels to zero).
    let pm: Vec<G1Affine> = (0..1000)
        .map(|i| {
            if i % 2 == 0 {
                bases[i / 2]
            } else {
                -bases[i / 2]
            }
        })
        .collect();
    let sc = random_scalars(1000, ctx.next_seed());
    check_msm(ctx, "P and -P, random scalars", &pm, &sc, &cfg);
    let paired: Vec<Fr> = (0..500)
        .flat_map(|_| {
            let s = Fr::rand(&mut ctx.rng);
            [s, s]
        })
        .collect();
    check_msm(ctx, "P and -P, equal scalars (zero)", &pm, &paired, &cfg);
    assert!(ctx.dev.msm(&pm, &paired, &cfg).unwrap() == G1Projective::ZERO);

    let mut with_inf = bases[..1000].to_vec();
    for i in (0..1000).step_by(3) {
        with_inf[i] = G1Affine::identity();
    }
    let sc = random_scalars(1000, ctx.next_seed());
    check_msm(ctx, "every third base at infinity", &with_inf, &sc, &cfg);
    let all_inf = vec![G1Affine::identity(); 300];
    let sc = random_scalars(300, ctx.next_seed());
    check_msm(ctx, "all bases at infinity", &all_inf, &sc, &cfg);

    for n in [31usize, 65, 257, 2047] {
        let sc = random_scalars(n, ctx.next_seed());
        check_msm(ctx, &format!("non-power-of-two n = {n}"), b(n), &sc, &cfg);
    }

    let scalars = random_scalars(1000, ctx.next_seed());
    let hot = vec![rand_fr(ctx); 1000];
    // 13 and 14 bits: the widest windows whose scatter takes the decompose stage's
    // ranks, and the narrowest that goes through bins; 16 the widest whose bins are
    // not nested, 17 the narrowest whose are (`plan::ScatterMode`).
    for c in [2u32, 4, 9, 13, 14, 15, 16, 17] {
        let cfg = glv_windows_of(c, ctx.cfg());
        check_msm(ctx, &format!("window_bits = {c}"), b(1000), &scalars, &cfg);
        if c == 9 || c == 14 || c == 16 {
            check_msm(
                ctx,
                &format!("one hot bucket, window_bits = {c}"),
                b(1000),
                &hot,
                &cfg,
            );
        }
    }
    // Bins over several tiles of a window (10,000 entries, tiles of 2,048), with
    // every bucket of a bin drawn on and a hot one; at 17 bits nested bins (coarse
    // bins of 256 buckets, two fine bins each), several of scatter_mid's tiles
    // reserving places in the hot bucket's fine bin (embed.rs's window_ranges takes 19
    // bits).
    let many = random_scalars(5000, ctx.next_seed());
    let bases5000 = random_bases(5000, 5000, ctx.next_seed());
    for c in [14u32, 15, 17] {
        let cfg = glv_windows_of(c, ctx.cfg());
        check_msm(
            ctx,
            &format!("window_bits = {c}, n = 5000"),
            &bases5000,
            &many,
            &cfg,
        );
        let hot5000 = vec![many[0]; 5000];
        check_msm(
            ctx,
            &format!("one hot bucket, window_bits = {c}, n = 5000"),
            &bases5000,
            &hot5000,
            &cfg,
        );
    }
    // Fine bins holding more than a tile on average (here 16.5 entries a bucket of
    // 14-bit windows, each workgroup of `scatter_fine` one bin), against the sparse
    // bins above (two bins a workgroup, `stages::fine_bins_a_group`).
    let dense = 67_584;
    let dense_scalars = random_scalars(dense, ctx.next_seed());
    let dense_bases = random_bases(dense, 4096, ctx.next_seed());
    check_msm(
        ctx,
        &format!("window_bits = 14, n = {dense}"),
        &dense_bases,
        &dense_scalars,
        &glv_windows_of(14, ctx.cfg()),
    );
    // 22 bits: the widest windows (six of a GLV half, 2^21 buckets each: 256 coarse
    // bins of 64 fine ones, reduction walks of 128 buckets), where the device holds
    // their buckets (BN254 G1's bucket totals: one binding of 1.5 GiB);
    // elsewhere the binding limit's or the memory's error (asked for as here; the
    // width rule then takes narrower windows), any other result a failure.
    let cfg = glv_windows_of(22, ctx.cfg());
    match ctx.dev.msm(&bases5000, &many, &cfg) {
        Err(e @ (Error::LimitExceeded { .. } | Error::OutOfMemory { .. })) => {
            eprintln!("{}: 22-bit windows do not fit here: {e}", ctx.tag());
        }
        _ => {
            check_msm(ctx, "window_bits = 22, n = 5000", &bases5000, &many, &cfg);
            let hot5000 = vec![many[1]; 5000];
            check_msm(
                ctx,
                "one hot bucket, window_bits = 22",
                &bases5000,
                &hot5000,
                &cfg,
            );
        }
    }
    // Multi-pass: a forced small chunk (4 passes of 256; the last one partial).
    let cfg256 = MsmConfig {
        chunk_size: Some(256),
        ..ctx.cfg()
    };
    check_msm(ctx, "chunk_size 256, n = 1000", b(1000), &scalars, &cfg256);
    let cfg64 = MsmConfig {
        chunk_size: Some(64),
        window_bits: Some(5),
        ..ctx.cfg()
    };
    check_msm(
        ctx,
        "chunk_size 64, c = 5, n = 300",
        b(300),
        &scalars[..300],
        &cfg64,
    );
    // Everything at once across passes: hot bucket, P/-P, infinity.
    let mut mix = pm.clone();
    for i in (0..1000).step_by(7) {
        mix[i] = G1Affine::identity();
    }
    let mixed: Vec<Fr> = (0..1000)
        .map(|i| if i % 5 == 0 { s } else { paired[i] })
        .collect();
    check_msm(
        ctx,
        "mixed adversarial, chunk_size 256",
        &mix,
        &mixed,
        &cfg256,
    );

    // Passes in every way of reaching the bucket totals (`stages::accumulate::Heads`): c = 6 (32
    // buckets a window) and passes of at most 2048 growing from 1024 give 880 (the
    // MSM's first pass), 1024 (32 points a bucket: heads start from the totals), 2048
    // and 2048 (beyond: every piece goes to the collect step); with a hot bucket that
    // spans dozens of chunks, zeros and r - 1. Then the same over resident bases
    // (passes of 2048, 2048, 1904).
    let twice: Vec<G1Affine> = bases.iter().chain(&bases).copied().collect();
    let hot = rand_fr(ctx);
    let modes: Vec<Fr> = (0..6000)
        .map(|i| match i % 10 {
            0..=3 => hot,
            4 => Fr::ZERO,
            5 => minus_one,
            _ => rand_fr(ctx),
        })
        .collect();
    let cfg_modes = MsmConfig {
        window_bits: Some(6),
        chunk_size: Some(2048),
        ..ctx.cfg()
    };
    let label = "passes of every heads mode (c = 6, chunk_size 2048, n = 6000)";
    check_msm(ctx, label, &twice, &modes, &cfg_modes);
    // Seeded later passes whose bucket partials are kept one a chunk (12-bit windows:
    // fewer chunks than buckets, `Plan::bucket_partials`), the hot bucket spanning
    // chunks in every pass.
    let cfg_seeded = MsmConfig {
        window_bits: Some(12),
        chunk_size: Some(2048),
        ..ctx.cfg()
    };
    let label = "seeded passes, one bucket partial a chunk (c = 12, chunk_size 2048)";
    check_msm(ctx, label, &twice, &modes, &cfg_seeded);
    let srs = ctx.dev.upload_bases(&twice).expect("upload");
    let want = G1Projective::msm(&twice, &modes).expect("equal lengths");
    assert!(
        ctx.dev.msm_with(&srs, &modes, &cfg_modes).unwrap() == want,
        "{} {label}, resident bases",
        ctx.tag()
    );
}

#[test]
fn msm_adversarial_wide64() {
    for_each_device("msm_adversarial_wide64", MulPath::Wide64, msm_adversarial);
}

#[test]
fn msm_adversarial_portable32() {
    for_each_device("msm_adversarial_portable32", MulPath::Portable32, |ctx| {
        // Both Fq representations, whichever the device picks.
        with_fq32(ctx, Fq32::Words, msm_adversarial);
        with_fq32(ctx, Fq32::Small, msm_adversarial);
    });
}

// ---------------------------------------------------------------------------------------
// CUDA parity vectors
// ---------------------------------------------------------------------------------------

fn parity_table() -> &'static [G1Affine] {
    static TABLE: OnceLock<Vec<G1Affine>> = OnceLock::new();
    TABLE.get_or_init(|| parity_bases(PARITY_BASES))
}

fn cuda_parity_2_16(ctx: &mut Ctx) {
    let (bases, scalars) = parity_inputs(parity_table(), 1 << 16);
    let want = parity_expected(16).expect("the vectors cover 2^16");
    let got = ctx
        .dev
        .msm(&bases, &scalars, &ctx.cfg())
        .unwrap_or_else(|e| panic!("{} 2^16: {e}", ctx.tag()));
    assert_eq!(
        got.into_affine(),
        want,
        "{} CUDA parity vector 2^16",
        ctx.tag()
    );
}

#[test]
fn cuda_parity_2_16_wide64() {
    for_each_device("cuda_parity_2_16_wide64", MulPath::Wide64, cuda_parity_2_16);
}

#[test]
fn cuda_parity_2_16_portable32() {
    for_each_device(
        "cuda_parity_2_16_portable32",
        MulPath::Portable32,
        cuda_parity_2_16,
    );
}

// ---------------------------------------------------------------------------------------
// Resident bases and the async entry point
// ---------------------------------------------------------------------------------------

fn resident_and_async(ctx: &mut Ctx) {
    let cfg = ctx.cfg();
    let n = 1500;
    let bases = random_bases(n, n, ctx.next_seed());
    let resident = ctx
        .dev
        .upload_bases(&bases)
        .unwrap_or_else(|e| panic!("{} upload: {e}", ctx.tag()));
    assert_eq!(resident.len(), n);
    assert_eq!(resident.device_uid(), ctx.dev.uid());
    let shown = format!("{resident:?}");
    assert!(
        shown.starts_with("DeviceBases") && shown.contains("len: 1500"),
        "{shown}"
    );
    let sets: Vec<Vec<Fr>> = vec![
        random_scalars(n, ctx.next_seed()),
        random_scalars(n, ctx.next_seed()),
        vec![Fr::ZERO; n],
        vec![-Fr::ONE; n],
        random_scalars(n, ctx.next_seed()),
    ];
    for (k, scalars) in sets.iter().enumerate() {
        let want = G1Projective::msm(&bases, scalars).unwrap();
        let got = ctx
            .dev
            .msm_with(&resident, scalars, &cfg)
            .unwrap_or_else(|e| panic!("{} msm_with #{k}: {e}", ctx.tag()));
        assert!(
            got == want,
            "{} msm_with over resident bases, scalar set #{k}",
            ctx.tag()
        );
    }
    // The same resident bases under other pass shapes.
    let chunked = MsmConfig {
        chunk_size: Some(512),
        window_bits: Some(7),
        ..cfg.clone()
    };
    let want = G1Projective::msm(&bases, &sets[0]).unwrap();
    assert!(
        ctx.dev.msm_with(&resident, &sets[0], &chunked).unwrap() == want,
        "{} msm_with chunked",
        ctx.tag()
    );
    let r = ctx.dev.msm_with(&resident, &sets[0][..n - 1], &cfg);
    assert!(
        matches!(
            r,
            Err(Error::LengthMismatch {
                bases: 1500,
                scalars: 1499
            })
        ),
        "{} {r:?}",
        ctx.tag()
    );

    // Async, driven by pollster: host bases, then resident bases.
    let got = pollster::block_on(ctx.dev.msm_async(&bases, &sets[1], &cfg)).unwrap();
    assert!(
        got == G1Projective::msm(&bases, &sets[1]).unwrap(),
        "{} msm_async",
        ctx.tag()
    );
    let got = pollster::block_on(ctx.dev.msm_with_async(&resident, &sets[4], &cfg)).unwrap();
    assert!(
        got == G1Projective::msm(&bases, &sets[4]).unwrap(),
        "{} msm_with_async",
        ctx.tag()
    );
    // Two futures in flight at once on one device.
    let (x, y) = pollster::block_on(async {
        let f1 = ctx.dev.msm_with_async(&resident, &sets[0], &cfg);
        let f2 = ctx.dev.msm_async(&bases[..700], &sets[1][..700], &cfg);
        (f1.await, f2.await)
    });
    assert!(x.unwrap() == want, "{} first of two futures", ctx.tag());
    assert!(
        y.unwrap() == G1Projective::msm(&bases[..700], &sets[1][..700]).unwrap(),
        "{} second of two futures",
        ctx.tag()
    );
}

#[test]
fn resident_and_async_wide64() {
    for_each_device(
        "resident_and_async_wide64",
        MulPath::Wide64,
        resident_and_async,
    );
}

#[test]
fn resident_and_async_portable32() {
    for_each_device(
        "resident_and_async_portable32",
        MulPath::Portable32,
        resident_and_async,
    );
}

// ---------------------------------------------------------------------------------------
// Resident scalars (bases and scalars both on the device)
// ---------------------------------------------------------------------------------------

/// `msm_resident` against arkworks: random and adversarial scalar sets (zero, r - 1,
/// all equal: one hot bucket) over bases with repeats, P and -P and infinity, stored
/// expanded and plain; prefixes, n = 0 and 1, several passes; async; and its errors.
fn resident_scalars(ctx: &mut Ctx) {
    let cfg = ctx.cfg();
    let n = 1500;
    let mut bases = random_bases(n, 700, ctx.next_seed());
    bases[3] = G1Affine::identity();
    bases[4] = -bases[5];
    let tag = ctx.tag();
    let up_b = |b: &[G1Affine], c: &MsmConfig| {
        ctx.dev
            .upload_bases_with(b, c)
            .unwrap_or_else(|e| panic!("{tag} upload bases: {e}"))
    };
    let expanded = up_b(&bases, &cfg);
    let plain = up_b(
        &bases,
        &MsmConfig {
            glv: Some(false),
            ..cfg.clone()
        },
    );
    assert!(expanded.expanded() && !plain.expanded());
    let sets: Vec<(&str, Vec<Fr>)> = vec![
        ("random", random_scalars(n, ctx.next_seed())),
        ("zero", vec![Fr::ZERO; n]),
        ("r - 1", vec![-Fr::ONE; n]),
        ("all equal", vec![random_scalars(1, ctx.next_seed())[0]; n]),
    ];
    // Whole scalars and GLV; one pass, and several (chunk_size) with narrow windows.
    let shapes = [
        ("default", cfg.clone()),
        (
            "whole",
            MsmConfig {
                glv: Some(false),
                ..cfg.clone()
            },
        ),
        (
            "passes of 512",
            MsmConfig {
                chunk_size: Some(512),
                window_bits: Some(7),
                ..cfg.clone()
            },
        ),
    ];
    for (what, scalars) in &sets {
        let ds = ctx
            .dev
            .upload_scalars(scalars)
            .unwrap_or_else(|e| panic!("{tag} upload scalars: {e}"));
        assert_eq!((ds.len(), ds.device_uid()), (n, ctx.dev.uid()));
        let want = G1Projective::msm(&bases, scalars).unwrap();
        for (shape, c) in &shapes {
            for (layout, b) in [("expanded", &expanded), ("plain", &plain)] {
                let got = ctx
                    .dev
                    .msm_resident(b, &ds, c)
                    .unwrap_or_else(|e| panic!("{tag} {what} {shape} {layout}: {e}"));
                assert!(
                    got == want,
                    "{tag} msm_resident, {what} scalars, {shape}, {layout} bases"
                );
            }
        }
    }
    // Prefixes: fewer scalars than bases multiply the first bases; n = 1 and 0.
    let s = random_scalars(n, ctx.next_seed());
    for k in [700usize, 1, 0] {
        let ds = ctx.dev.upload_scalars(&s[..k]).unwrap();
        assert!(format!("{ds:?}").contains(&format!("len: {k}")), "{ds:?}");
        let want = G1Projective::msm(&bases[..k], &s[..k]).unwrap();
        let got = pollster::block_on(ctx.dev.msm_resident_async(&expanded, &ds, &cfg));
        assert!(
            got.as_ref().ok() == Some(&want),
            "{tag} msm_resident_async of the first {k} bases: {got:?}"
        );
    }
    // Errors: more scalars than bases; scalars or bases of another device; a base off
    // the curve.
    let long = ctx.dev.upload_scalars(&random_scalars(n + 1, 1)).unwrap();
    let r = ctx.dev.msm_resident(&expanded, &long, &cfg);
    assert!(
        matches!(
            r,
            Err(Error::LengthMismatch {
                bases: 1500,
                scalars: 1501
            })
        ),
        "{tag} longer scalars: {r:?}"
    );
    let other = ctx
        .dev
        .open_again()
        .unwrap_or_else(|e| panic!("{tag} open_again: {e}"));
    let theirs = other.upload_scalars(&s).unwrap();
    let r = ctx.dev.msm_resident(&expanded, &theirs, &cfg);
    assert!(
        matches!(r, Err(Error::WrongDevice { what: "DeviceScalars", owner, used })
            if owner == other.uid() && used == ctx.dev.uid()),
        "{tag} scalars of another device: {r:?}"
    );
    let r = other.msm_resident(&expanded, &theirs, &cfg);
    assert!(
        matches!(
            r,
            Err(Error::WrongDevice {
                what: "DeviceBases",
                ..
            })
        ),
        "{tag} bases of another device: {r:?}"
    );
    let mut bad = bases.clone();
    bad[1234] = G1Affine::new_unchecked(bad[1234].x, bad[1234].y + Fq::ONE);
    let bad = up_b(&bad, &cfg);
    let ds = ctx.dev.upload_scalars(&s).unwrap();
    let r = ctx.dev.msm_resident(&bad, &ds, &cfg);
    assert!(
        matches!(r, Err(Error::PointNotOnCurve { index: 1234 })),
        "{tag} a base off the curve: {r:?}"
    );
}

#[test]
fn resident_scalars_wide64() {
    for_each_device("resident_scalars_wide64", MulPath::Wide64, resident_scalars);
}

#[test]
fn resident_scalars_portable32() {
    for_each_device(
        "resident_scalars_portable32",
        MulPath::Portable32,
        resident_scalars,
    );
}

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

fn errors(ctx: &mut Ctx) {
    let cfg = ctx.cfg();
    let dev = ctx.dev;
    let tag = ctx.tag();
    let bases = random_bases(200, 200, ctx.next_seed());
    let scalars = random_scalars(200, ctx.next_seed());

    let r = dev.msm(&bases[..3], &scalars[..2], &cfg);
    assert!(
        matches!(
            r,
            Err(Error::LengthMismatch {
                bases: 3,
                scalars: 2
            })
        ),
        "{tag} {r:?}"
    );
    let none: &[G1Affine] = &[];
    let r = dev.msm(none, &scalars[..1], &cfg);
    assert!(
        matches!(
            r,
            Err(Error::LengthMismatch {
                bases: 0,
                scalars: 1
            })
        ),
        "{tag} {r:?}"
    );

    // A base off the curve, anywhere; with two, the first is reported.
    let bump = |p: G1Affine| G1Affine::new_unchecked(p.x, p.y + Fq::ONE);
    for idx in [0usize, 37, 199] {
        let mut bad = bases.clone();
        bad[idx] = bump(bad[idx]);
        let r = dev.msm(&bad, &scalars, &cfg);
        assert!(
            matches!(r, Err(Error::PointNotOnCurve { index }) if index == idx),
            "{tag} off-curve base {idx}: {r:?}"
        );
    }
    let mut bad = bases.clone();
    bad[150] = bump(bad[150]);
    bad[60] = G1Affine::new_unchecked(bad[60].x + Fq::ONE, bad[60].y);
    let r = dev.msm(&bad, &scalars, &cfg);
    assert!(
        matches!(r, Err(Error::PointNotOnCurve { index: 60 })),
        "{tag} two off-curve bases: {r:?}"
    );
    // An off-curve base is reported even when its scalar is zero.
    let mut zs = scalars.clone();
    zs[37] = Fr::ZERO;
    let mut bad = bases.clone();
    bad[37] = bump(bad[37]);
    let r = dev.msm(&bad, &zs, &cfg);
    assert!(
        matches!(r, Err(Error::PointNotOnCurve { index: 37 })),
        "{tag} off-curve base with zero scalar: {r:?}"
    );
    // A point stored as (0, 0). The device reads (0, 0) as infinity, so a non-infinity
    // (0, 0) must be refused. But ark-bn254 0.6 gives G1 `ZeroFlag = ()`: there is no
    // infinity flag and (0, 0) *is* the point at infinity, so there it is a valid base.
    let zz = G1Affine::new_unchecked(Fq::ZERO, Fq::ZERO);
    let mut bad = bases.clone();
    bad[5] = zz;
    let r = dev.msm(&bad, &scalars, &cfg);
    if zz.is_zero() {
        let want = G1Projective::msm(&bad, &scalars).unwrap();
        assert!(
            matches!(&r, Ok(got) if *got == want),
            "{tag} (0, 0) base is infinity in arkworks: {r:?}"
        );
    } else {
        assert!(
            matches!(r, Err(Error::PointNotOnCurve { index: 5 })),
            "{tag} non-infinity (0, 0) base: {r:?}"
        );
    }
    // The off-curve check also guards resident bases.
    let mut bad = bases.clone();
    bad[123] = bump(bad[123]);
    match dev.upload_bases(&bad) {
        Err(Error::PointNotOnCurve { index }) => assert_eq!(index, 123, "{tag}"),
        Err(e) => panic!("{tag} upload of an off-curve base: {e}"),
        Ok(db) => {
            let r = dev.msm_with(&db, &scalars, &cfg);
            assert!(
                matches!(r, Err(Error::PointNotOnCurve { index: 123 })),
                "{tag} resident off-curve base: {r:?}"
            );
        }
    }

    // Resident bases used on another logical device of the same adapter.
    let other = dev
        .open_again()
        .unwrap_or_else(|e| panic!("{tag} open_again: {e}"));
    assert_ne!(other.uid(), dev.uid());
    let db = dev.upload_bases(&bases).unwrap();
    let r = other.msm_with(&db, &scalars, &cfg);
    assert!(
        matches!(r, Err(Error::WrongDevice { owner, used, .. }) if owner == dev.uid() && used == other.uid()),
        "{tag} bases of another device: {r:?}"
    );

    // Budgets and configuration.
    let r = dev.msm(
        &bases,
        &scalars,
        &MsmConfig {
            memory_budget: Some(1),
            ..cfg.clone()
        },
    );
    assert!(
        matches!(r, Err(Error::OutOfMemory { .. })),
        "{tag} memory_budget 1: {r:?}"
    );
    for c in [0u32, 1, wgpu_msm::msm::plan::MAX_WINDOW_BITS + 1] {
        let r = dev.msm(
            &bases,
            &scalars,
            &MsmConfig {
                window_bits: Some(c),
                ..cfg.clone()
            },
        );
        assert!(
            matches!(r, Err(Error::InvalidConfig(_))),
            "{tag} window_bits {c}: {r:?}"
        );
    }

    // After all of that the device still computes correctly.
    let got = dev
        .msm_with(&db, &scalars, &cfg)
        .unwrap_or_else(|e| panic!("{tag} after errors: {e}"));
    assert!(
        got == G1Projective::msm(&bases, &scalars).unwrap(),
        "{tag} MSM after errors"
    );
}

#[test]
fn errors_wide64() {
    for_each_device("errors_wide64", MulPath::Wide64, errors);
}

#[test]
fn errors_portable32() {
    for_each_device("errors_portable32", MulPath::Portable32, errors);
}

/// `Arithmetic::Auto` picks Wide64 exactly where SHADER_INT64 exists, and its MSM agrees
/// with arkworks.
#[test]
fn auto_arithmetic_resolves_by_int64() {
    for dev in devices() {
        let want = if dev.info().shader_int64 {
            MulPath::Wide64
        } else {
            MulPath::Portable32
        };
        assert_eq!(
            dev.resolve_arithmetic(Arithmetic::Auto).unwrap(),
            want,
            "{dev:?}"
        );
        let bases = random_bases(300, 300, base_seed());
        let scalars = random_scalars(300, base_seed());
        let got = dev.msm(&bases, &scalars, &MsmConfig::default()).unwrap();
        assert!(
            got == G1Projective::msm(&bases, &scalars).unwrap(),
            "{dev:?} Auto; WGPU_MSM_SEED={}",
            base_seed()
        );
    }
}

/// Every test above fails rather than passes when no adapter exists.
#[test]
fn at_least_one_device() {
    assert!(!devices().is_empty());
}

/// `msm_batch` over resident bases equals one `msm_with` per set; a future dropped after
/// its first poll (work submitted, result not read) leaves the device usable.
fn batch_and_cancellation(ctx: &mut Ctx) {
    let n = 300;
    let seed = ctx.next_seed();
    let bases = random_bases(n, n, seed);
    let sets: Vec<Vec<Fr>> = (0..7)
        .map(|k| random_scalars(n, seed.wrapping_add(k)))
        .collect();
    let refs: Vec<&[Fr]> = sets.iter().map(Vec::as_slice).collect();
    let resident = ctx.dev.upload_bases(&bases).expect("upload");
    let got = ctx
        .dev
        .msm_batch(&resident, &refs, &ctx.cfg())
        .expect("batch");
    assert_eq!(got.len(), 7);
    for (k, s) in sets.iter().enumerate() {
        let want = G1Projective::msm(&bases, s).unwrap();
        assert_eq!(got[k], want, "{}: batch element {k}", ctx.tag());
    }
    let cfg = ctx.cfg();
    {
        let mut fut = Box::pin(ctx.dev.msm_async(&bases, &sets[0], &cfg));
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        let _ = fut.as_mut().poll(&mut cx);
    }
    let again = ctx
        .dev
        .msm(&bases, &sets[1], &ctx.cfg())
        .expect("msm after a dropped future");
    assert_eq!(
        again,
        G1Projective::msm(&bases, &sets[1]).unwrap(),
        "{}: after cancellation",
        ctx.tag()
    );
}

#[test]
fn batch_and_cancellation_wide64() {
    for_each_device(
        "batch_and_cancellation",
        MulPath::Wide64,
        batch_and_cancellation,
    );
}

#[test]
fn batch_and_cancellation_portable32() {
    for_each_device(
        "batch_and_cancellation",
        MulPath::Portable32,
        batch_and_cancellation,
    );
}
