//! Puts the commit the binary is built from into `knightfall --version`: the short hash from
//! git, marked `-modified` when the work tree has changes, or `KNIGHTFALL_COMMIT` when set (a
//! build outside a checkout, such as a source package), or "unknown".

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-env-changed=KNIGHTFALL_COMMIT");
    // A new commit or a checkout moves HEAD or the branch it names.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={dir}/{head}");
        }
    }
    let commit = std::env::var("KNIGHTFALL_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| {
            let hash = git(&["rev-parse", "--short=9", "HEAD"])?;
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            Some(if dirty {
                format!("{hash}-modified")
            } else {
                hash
            })
        })
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=KNIGHTFALL_COMMIT={commit}");
}
