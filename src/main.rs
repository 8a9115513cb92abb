fn main() {
    env_logger::init();
    use ark_ec::VariableBaseMSM;
    let devs = wgpu_msm::Device::all().unwrap();
    for d in &devs { println!("{:?} {:?}", d, d.info()); }
    for n in [1usize, 2, 5, 100, 1000, 4097] {
        let b = wgpu_msm::testing::random_bases(n, n, 1);
        let s = wgpu_msm::testing::random_scalars(n, 2);
        let want = ark_bn254::G1Projective::msm(&b, &s).unwrap();
        for a in [wgpu_msm::Arithmetic::Wide64, wgpu_msm::Arithmetic::Portable32] {
            let t = std::time::Instant::now();
            let got = devs[0].msm(&b, &s, &wgpu_msm::MsmConfig::with_arithmetic(a));
            println!("n={n} {a:?} ok={} {:?}", got.as_ref().map(|g| *g == want).unwrap_or(false), t.elapsed());
        }
    }
}
