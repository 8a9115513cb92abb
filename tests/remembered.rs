//! Cost models kept on disk (in `WGPU_MSM_CACHE_DIR`): a process whose cluster
//! calibrated leaves them for the next, which does not calibrate again. The test runs
//! itself twice as a child process with a fresh cache directory (a process reads the
//! file once), through the CPU worker (which remembers its costs and needs no GPU).

use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::VariableBaseMSM;
use std::sync::Arc;
use wgpu_msm::testing::{random_bases, random_scalars};
use wgpu_msm::{Cluster, ClusterConfig, CpuWorker, MsmConfig, Strategy};

const CHILD: &str = "WGPU_MSM_TEST_REMEMBERED_CHILD";

/// One child: an adaptive MSM on the CPU worker; `expect` says whether it calibrates.
fn child(expect: &str) {
    let n = 3000;
    let bases: Vec<G1Affine> = random_bases(n, 256, 971);
    let scalars: Vec<Fr> = random_scalars(n, 971);
    let c = Cluster::from_workers(vec![Arc::new(CpuWorker)])
        .unwrap()
        .with_config(ClusterConfig {
            strategy: Strategy::Dynamic,
            calibration_points: 64,
            ..Default::default()
        });
    let got = c.msm(&bases, &scalars, &MsmConfig::default()).unwrap();
    assert_eq!(
        got,
        G1Projective::msm(&bases, &scalars).unwrap(),
        "seed 971"
    );
    let r = c.last_report().unwrap();
    assert!(r.workers[0].cost_model.is_some(), "{r}");
    match expect {
        "calibrates" => assert!(r.calibration_s > 0.0, "fresh cache: {r}"),
        _ => assert_eq!(r.calibration_s, 0.0, "the model from the file: {r}"),
    }
}

#[test]
fn cost_models_persist_across_processes() {
    if let Ok(expect) = std::env::var(CHILD) {
        child(&expect);
        return;
    }
    let dir = std::env::temp_dir().join(format!("wgpu-msm-remembered-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = |expect: &str| {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "cost_models_persist_across_processes",
                "--nocapture",
            ])
            .env(CHILD, expect)
            .env("WGPU_MSM_CACHE_DIR", &dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "child ({expect}) failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run("calibrates");
    let file = dir.join("cost-models.json");
    let text = std::fs::read_to_string(&file).expect("the first child wrote the models");
    assert!(text.contains("cpu (arkworks"), "{text}");
    run("recalls");
    std::fs::remove_dir_all(&dir).unwrap();
}
