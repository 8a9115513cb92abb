//! Fq2 = Fq[u] / (u^2 + 1) in WGSL (shaders/fq2.wgsl, the base field of G2) and the
//! curve formulas over it (G2's) against arkworks' `Fq2`, `G2Affine` of BN254 and
//! BLS12-381, one operation at a time, on both paths.

// The harness's MSM helpers (`Ctx::cfg`, `Ctx::next_seed`) go unused here.
#[allow(dead_code)]
mod common;

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{AdditiveGroup, Field, Fp2, Fp2Config, UniformRand};
use common::{for_each_device, Ctx};
use wgpu_msm::opcheck::{fq2_op, g2_op};
use wgpu_msm::{Group, GroupId, MulPath};

/// The words of `v` as the kernels read them: c0 then c1, Montgomery form.
fn words<C, P>(v: &[Fp2<P>]) -> Vec<u32>
where
    C: Group,
    P: Fp2Config<Fp = C::BaseField>,
{
    let fw = C::FQ_WORDS;
    let mut out = vec![0u32; 2 * fw * v.len()];
    for (x, d) in v.iter().zip(out.chunks_exact_mut(2 * fw)) {
        C::element_to_words(&x.c0, &mut d[..fw]);
        C::element_to_words(&x.c1, &mut d[fw..]);
    }
    out
}

fn check<C, P>(ctx: &mut Ctx, group: GroupId)
where
    C: Group,
    P: Fp2Config<Fp = C::BaseField>,
{
    let one = Fp2::<P>::ONE;
    let u = Fp2::<P>::new(C::BaseField::ZERO, C::BaseField::ONE);
    // -(1 + u) has both coordinates p - 1: the largest inputs (2p - 1 each for
    // `mul_unreduced`).
    let top = -(one + u);
    let mut a: Vec<Fp2<P>> = vec![Fp2::<P>::ZERO, one, -one, u, -u, u + one, top, top, one];
    let mut b: Vec<Fp2<P>> = vec![one, -one, u, u, -one, -u, top, one, top];
    for _ in 0..250 {
        a.push(Fp2::<P>::rand(&mut ctx.rng));
        b.push(Fp2::<P>::rand(&mut ctx.rng));
    }
    let (wa, wb) = (words::<C, P>(&a), words::<C, P>(&b));
    type Op<P> = fn(Fp2<P>, Fp2<P>) -> Fp2<P>;
    let ops: [(&str, bool, Op<P>); 9] = [
        ("add", true, |x, y| x + y),
        ("sub", true, |x, y| x - y),
        ("mul", true, |x, y| x * y),
        ("mul_unreduced", true, |x, y| x * y),
        ("mul_sub", true, |x, y| x * y - y * x.square()),
        ("sqr", false, |x, _| x.square()),
        ("neg", false, |x, _| -x),
        ("double", false, |x, _| x.double()),
        ("chain", true, |x, y| (x * y).square() - x),
    ];
    for (op, binary, f) in ops {
        let got = fq2_op(
            ctx.dev,
            group,
            ctx.path,
            op,
            &wa,
            if binary { &wb } else { &[] },
        )
        .unwrap_or_else(|e| panic!("{} {group} {op}: {e}", ctx.tag()));
        let want: Vec<Fp2<P>> = a.iter().zip(&b).map(|(x, y)| f(*x, *y)).collect();
        assert_eq!(got, words::<C, P>(&want), "{} {group} fq2 {op}", ctx.tag());
    }
}

/// G2 points as the kernels read them: x.c0, x.c1, y.c0, y.c1, zeros for infinity.
fn g2_words<C, P, G>(pts: &[Affine<G>]) -> Vec<u32>
where
    C: Group,
    P: Fp2Config<Fp = C::BaseField>,
    G: SWCurveConfig<BaseField = Fp2<P>>,
{
    let fw = C::FQ_WORDS;
    let mut out = vec![0u32; 4 * fw * pts.len()];
    for (p, d) in pts.iter().zip(out.chunks_exact_mut(4 * fw)) {
        if p.is_zero() {
            continue;
        }
        C::element_to_words(&p.x.c0, &mut d[..fw]);
        C::element_to_words(&p.x.c1, &mut d[fw..2 * fw]);
        C::element_to_words(&p.y.c0, &mut d[2 * fw..3 * fw]);
        C::element_to_words(&p.y.c1, &mut d[3 * fw..]);
    }
    out
}

fn check_g2<C, P, G>(ctx: &mut Ctx, group: GroupId)
where
    C: Group,
    P: Fp2Config<Fp = C::BaseField>,
    G: SWCurveConfig<BaseField = Fp2<P>>,
{
    let mut a: Vec<Affine<G>> = (0..120)
        .map(|_| Projective::<G>::rand(&mut ctx.rng).into_affine())
        .collect();
    let mut b: Vec<Affine<G>> = (0..120)
        .map(|_| Projective::<G>::rand(&mut ctx.rng).into_affine())
        .collect();
    // P + P, P + (-P), infinity on either side.
    b[0] = a[0];
    b[1] = -a[1];
    a[2] = Affine::<G>::identity();
    b[3] = Affine::<G>::identity();
    let (wa, wb) = (g2_words::<C, P, G>(&a), g2_words::<C, P, G>(&b));
    type Op<G> = fn(Affine<G>, Affine<G>) -> Affine<G>;
    let ops: [(&str, bool, Op<G>); 4] = [
        ("madd", true, |x, y| (x + y).into_affine()),
        ("add", true, |x, y| (x + y).into_affine()),
        ("double", false, |x, _| (x + x).into_affine()),
        ("neg", false, |x, _| -x),
    ];
    for (op, binary, f) in ops {
        let got = g2_op(
            ctx.dev,
            group,
            ctx.path,
            op,
            &wa,
            if binary { &wb } else { &[] },
        )
        .unwrap_or_else(|e| panic!("{} {group} {op}: {e}", ctx.tag()));
        let want: Vec<Affine<G>> = a.iter().zip(&b).map(|(x, y)| f(*x, *y)).collect();
        let want = g2_words::<C, P, G>(&want);
        let stride = 4 * C::FQ_WORDS;
        for (i, (g, w)) in got.chunks(stride).zip(want.chunks(stride)).enumerate() {
            assert_eq!(g, w, "{} {group} g2 {op} at {i}", ctx.tag());
        }
    }
    // On the curve: the points are, a point with y + 1 is not.
    let mut off = a.clone();
    off[5] = Affine::<G>::new_unchecked(off[5].x, off[5].y + Fp2::<P>::ONE);
    let got = g2_op(
        ctx.dev,
        group,
        ctx.path,
        "on_curve",
        &g2_words::<C, P, G>(&off),
        &[],
    )
    .unwrap_or_else(|e| panic!("{} {group} on_curve: {e}", ctx.tag()));
    for (i, w) in got.chunks(4 * C::FQ_WORDS).enumerate() {
        assert_eq!(
            w[0],
            u32::from(i != 5),
            "{} {group} on_curve at {i}",
            ctx.tag()
        );
    }
}

fn both(ctx: &mut Ctx) {
    check::<ark_bn254::g1::Config, ark_bn254::Fq2Config>(ctx, GroupId::Bn254G1);
    check::<ark_bls12_381::g1::Config, ark_bls12_381::Fq2Config>(ctx, GroupId::Bls12381G1);
}

fn g2_bn254(ctx: &mut Ctx) {
    check_g2::<ark_bn254::g1::Config, ark_bn254::Fq2Config, ark_bn254::g2::Config>(
        ctx,
        GroupId::Bn254G1,
    );
}

fn g2_bls12_381(ctx: &mut Ctx) {
    check_g2::<ark_bls12_381::g1::Config, ark_bls12_381::Fq2Config, ark_bls12_381::g2::Config>(
        ctx,
        GroupId::Bls12381G1,
    );
}

#[test]
fn fq2_wide64() {
    for_each_device("fq2_wide64", MulPath::Wide64, both);
}

#[test]
fn fq2_portable32() {
    for_each_device("fq2_portable32", MulPath::Portable32, both);
}

// The G2 curve kernels are large (every formula over Fq2): a software driver compiles
// them for many minutes, so these run where asked (`-- --ignored`, on a GPU).

#[test]
#[ignore = "G2 kernels compile for minutes on a software driver; run with --ignored"]
fn g2_curve_bn254_wide64() {
    for_each_device("g2_curve_bn254_wide64", MulPath::Wide64, g2_bn254);
}

#[test]
#[ignore = "G2 kernels compile for minutes on a software driver; run with --ignored"]
fn g2_curve_bn254_portable32() {
    for_each_device("g2_curve_bn254_portable32", MulPath::Portable32, g2_bn254);
}

#[test]
#[ignore = "G2 kernels compile for minutes on a software driver; run with --ignored"]
fn g2_curve_bls12_381_wide64() {
    for_each_device("g2_curve_bls12_381_wide64", MulPath::Wide64, g2_bls12_381);
}

#[test]
#[ignore = "G2 kernels compile for minutes on a software driver; run with --ignored"]
fn g2_curve_bls12_381_portable32() {
    for_each_device(
        "g2_curve_bls12_381_portable32",
        MulPath::Portable32,
        g2_bls12_381,
    );
}
