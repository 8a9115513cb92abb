//! Fq2 = Fq[u] / (u^2 + 1) in WGSL (shaders/fq2.wgsl, the base field of G2) against
//! arkworks' `Fq2` of BN254 and BLS12-381, one operation at a time, on both paths.

// The harness's MSM helpers (`Ctx::cfg`, `Ctx::next_seed`) go unused here.
#[allow(dead_code)]
mod common;

use ark_ff::{AdditiveGroup, Field, Fp2, Fp2Config, UniformRand};
use common::{for_each_device, Ctx};
use wgpu_msm::opcheck::fq2_op;
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
        C::fq_to_words(&x.c0, &mut d[..fw]);
        C::fq_to_words(&x.c1, &mut d[fw..]);
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
    let mut a: Vec<Fp2<P>> = vec![Fp2::<P>::ZERO, one, -one, u, -u, u + one];
    let mut b: Vec<Fp2<P>> = vec![one, -one, u, u, -one, -u];
    for _ in 0..250 {
        a.push(Fp2::<P>::rand(&mut ctx.rng));
        b.push(Fp2::<P>::rand(&mut ctx.rng));
    }
    let (wa, wb) = (words::<C, P>(&a), words::<C, P>(&b));
    type Op<P> = fn(Fp2<P>, Fp2<P>) -> Fp2<P>;
    let ops: [(&str, bool, Op<P>); 7] = [
        ("add", true, |x, y| x + y),
        ("sub", true, |x, y| x - y),
        ("mul", true, |x, y| x * y),
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

fn both(ctx: &mut Ctx) {
    check::<ark_bn254::g1::Config, ark_bn254::Fq2Config>(ctx, GroupId::Bn254G1);
    check::<ark_bls12_381::g1::Config, ark_bls12_381::Fq2Config>(ctx, GroupId::Bls12381G1);
}

#[test]
fn fq2_wide64() {
    for_each_device("fq2_wide64", MulPath::Wide64, both);
}

#[test]
fn fq2_portable32() {
    for_each_device("fq2_portable32", MulPath::Portable32, both);
}
