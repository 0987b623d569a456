//! The dependency rule of `src/lib.rs`, checked on the source: each module uses only the modules
//! listed above it (no cycle, no arrow up), and inside every folder each module uses only the
//! modules listed above it in the folder's `mod.rs`.

use std::path::{Path, PathBuf};

/// The `pub mod NAME;` / `mod NAME;` lines of `file`, in order.
fn declared(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            let l = l.strip_prefix("pub(crate) ").unwrap_or(l);
            l.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_string)
        })
        .collect()
}

/// Every `.rs` file of module `name` in `dir` (`name.rs`, or the folder `name/`).
fn files_of(dir: &Path, name: &str) -> Vec<PathBuf> {
    let single = dir.join(format!("{name}.rs"));
    if single.is_file() {
        return vec![single];
    }
    let mut out = Vec::new();
    let mut stack = vec![dir.join(name)];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    out
}

/// The names that follow `prefix` in `text` (`crate::engine::...` gives `engine`).
fn uses<'a>(text: &'a str, prefix: &'a str) -> impl Iterator<Item = String> + 'a {
    text.match_indices(prefix).filter_map(move |(i, _)| {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            return None;
        }
        let rest = &text[i + prefix.len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        (!name.is_empty()).then_some(name)
    })
}

/// The arrows that point down the list of modules declared in `dir/root`: (from, to, file).
fn arrows_up(dir: &Path, root: &str, prefixes: &[&str], top_super: bool) -> Vec<String> {
    assert!(
        declared(&dir.join(root)).len() > 3,
        "no module list in {root}"
    );
    arrows(dir, root, prefixes, top_super)
}

/// The arrows up the module list of a folder's `mod.rs`, where a one-file module's `super::x`
/// names a sibling.
fn arrows_up_in(dir: &Path, root: &str, prefixes: &[&str]) -> Vec<String> {
    arrows(dir, root, prefixes, true)
}

fn arrows(dir: &Path, root: &str, prefixes: &[&str], top_super: bool) -> Vec<String> {
    let order = declared(&dir.join(root));
    let rank = |m: &str| order.iter().position(|o| o == m);
    let mut bad = Vec::new();
    for (i, module) in order.iter().enumerate() {
        for file in files_of(dir, module) {
            let text = std::fs::read_to_string(&file).unwrap();
            let mut names: Vec<String> = prefixes.iter().flat_map(|p| uses(&text, p)).collect();
            // In a module that is one file, `super::x` is a sibling module.
            if top_super && file.parent() == Some(dir) {
                names.extend(uses(&text, "super::"));
            }
            for name in names {
                if let Some(j) = rank(&name)
                    && j > i
                {
                    bad.push(format!("{module} -> {name} ({})", file.display()));
                }
            }
        }
    }
    bad.sort();
    bad.dedup();
    bad
}

#[test]
fn crate_modules_use_only_the_modules_above_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = arrows_up(&src, "lib.rs", &["crate::"], false);
    assert!(
        bad.is_empty(),
        "arrows up the list in lib.rs:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_checker_sees_an_arrow_up() {
    let dir = std::env::temp_dir().join(format!("knightfall-deps-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("b")).unwrap();
    std::fs::write(
        dir.join("lib.rs"),
        "pub mod a;\npub mod b;\npub mod c;\npub mod d;\n",
    )
    .unwrap();
    std::fs::write(dir.join("a.rs"), "use crate::b::X;\n").unwrap();
    std::fs::write(dir.join("b/mod.rs"), "use crate::a::Y;\n").unwrap();
    std::fs::write(dir.join("c.rs"), "").unwrap();
    std::fs::write(dir.join("d.rs"), "").unwrap();
    let bad = arrows_up(&dir, "lib.rs", &["crate::"], false);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].starts_with("a -> b"), "{bad:?}");
}

#[test]
fn every_folders_modules_use_only_the_modules_above_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut folders = vec![src.clone()];
    let mut bad = Vec::new();
    while let Some(dir) = folders.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                folders.push(p);
            }
        }
        if dir == src || !dir.join("mod.rs").is_file() || declared(&dir.join("mod.rs")).len() < 2 {
            continue;
        }
        let path = dir
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('/', "::");
        let prefix = format!("crate::{path}::");
        bad.extend(arrows_up_in(&dir, "mod.rs", &[&prefix]));
    }
    assert!(
        bad.is_empty(),
        "arrows up a folder's module list:\n{}",
        bad.join("\n")
    );
}
