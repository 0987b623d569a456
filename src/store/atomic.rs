//! Writing files so that a crash never leaves half of one, and saving where the player asked
//! without replacing what is not a game.

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use anyhow::{Context, Result};

use crate::game::Game;

/// Writes `text` to `path` so that a crash or a full disk never leaves half of it: into a new
/// temporary file of a fresh random name beside it (created exclusively, so no file or link of
/// that name can be followed), synced to disk, then renamed over `path` (a link at `path` is
/// replaced, not followed), and the folder synced so the rename itself survives a crash.
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let existing = fs::symlink_metadata(path).ok();
    if let Some(meta) = &existing {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        // `--out /dev/null`, `--out /dev/stdout` or a FIFO: written into, never replaced (a
        // rename over `/dev/null` would put a plain file in its place for every program).
        if kind.is_char_device() || kind.is_fifo() {
            return write_into(path, text);
        }
        if kind.is_dir() || kind.is_block_device() || kind.is_socket() {
            anyhow::bail!("{} is not a file to write", path.display());
        }
    }
    // A file replaced keeps its mode; a new one gets what the umask gives (0666 less it), as
    // any program's new file does, not the temporary file's private 0600.
    let replaced = existing
        .filter(fs::Metadata::is_file)
        .map(|m| m.permissions());
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .permissions(fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .with_context(|| format!("writing {}", path.display()))?;
    if let Some(mode) = replaced {
        tmp.as_file()
            .set_permissions(mode)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    // On any failure below the temporary file is removed when `tmp` drops.
    tmp.write_all(text.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .with_context(|| format!("writing {}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("writing {}", path.display()))?;
    // The rename is in the folder: sync it too (where the system allows opening a folder).
    if let Ok(folder) = fs::File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// Writes `text` into the device or FIFO at `path` (not followed if a link took its place
/// meanwhile). A FIFO nobody reads is an error at once, not a wait.
fn write_into(path: &Path, text: &str) -> Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ENXIO) => anyhow::anyhow!("nothing reads {}", path.display()),
            _ => anyhow::Error::new(e).context(format!("writing {}", path.display())),
        })?;
    // Blocking again: a FIFO's reader takes the text at its own pace.
    // SAFETY: fcntl(2) on a descriptor this function owns, with flags it read from it.
    unsafe {
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
        }
    }
    file.write_all(text.as_bytes())
        .with_context(|| format!("writing {}", path.display()))
}

/// Appends `text` to the end of `file` whole or not at all: on a failed write (a full disk, a
/// file-size limit) the file is cut back to where it ended, so no reader finds half a game at
/// its end. A file whose last line was left unended is first ended, so the two do not merge.
pub(crate) fn append_whole(file: &mut fs::File, text: &str) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let len = file.metadata()?.len();
    let mut separator = "";
    if len > 0 {
        let mut last = [0u8; 1];
        file.seek(SeekFrom::Start(len - 1))?;
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            separator = "\n\n";
        }
    }
    let written = file
        .write_all(separator.as_bytes())
        .and_then(|()| file.write_all(text.as_bytes()))
        .and_then(|()| file.sync_data());
    if let Err(e) = written {
        // Cutting back needs no new space, so it works on the full disk that failed the write.
        let _ = file.set_len(len).and_then(|()| file.sync_data());
        return Err(e);
    }
    Ok(())
}

/// Saves a game where the player asked (`save FILE`): a new file, or a PGN file of one game,
/// which is replaced; anything else already there is kept and the save refused.
pub(crate) fn save_as(path: &Path, text: &str) -> Result<()> {
    if path.exists() {
        let existing = if path.is_file() {
            fs::read_to_string(path).ok()
        } else {
            None
        };
        let Some(existing) = existing.filter(|t| read_game(t).is_ok()) else {
            anyhow::bail!(
                "{} exists and is not a PGN game; choose another name",
                path.display()
            );
        };
        if Game::all_from_pgn(&existing, 2).len() > 1 {
            anyhow::bail!(
                "{} holds several games and this would replace them all; choose another name",
                path.display()
            );
        }
    }
    write_atomic(path, text)
}

/// Reads a file's text as a PGN game. Any text reads as a game without moves, so a game must
/// also have moves or a tag pair (`[Name "value"]`; an INI or TOML section is not one).
pub(crate) fn read_game(text: &str) -> Result<Game, String> {
    let game = Game::from_pgn(text).map_err(|e| e.to_string())?;
    let tag_pair = |line: &str| {
        line.strip_prefix('[')
            .and_then(|l| l.strip_suffix(']'))
            .and_then(|l| l.split_once(' '))
            .is_some_and(|(name, value)| {
                !name.is_empty()
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && value.trim().starts_with('"')
                    && value.trim().ends_with('"')
            })
    };
    let tagged = text
        .trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(tag_pair);
    if game.ply() == 0 && !tagged {
        return Err("no PGN game in it".to_string());
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("knightfall-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_link_planted_where_a_temporary_file_or_the_file_goes_is_not_followed() {
        let dir = folder("links");
        let victim = dir.join("victim");
        fs::write(&victim, "precious").unwrap();
        // The names the old code used for its temporary file, and the file itself.
        std::os::unix::fs::symlink(&victim, dir.join("current.pgn.tmp")).unwrap();
        std::os::unix::fs::symlink(&victim, dir.join("current.pgn")).unwrap();
        write_atomic(&dir.join("current.pgn"), "1. e4 *\n").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(
            fs::read_to_string(dir.join("current.pgn")).unwrap(),
            "1. e4 *\n"
        );
        assert!(
            !fs::symlink_metadata(dir.join("current.pgn"))
                .unwrap()
                .is_symlink()
        );
        // Nothing else is left in the folder.
        let mut names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["current.pgn", "current.pgn.tmp", "victim"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_new_file_takes_the_umask_s_mode_and_a_replaced_one_keeps_its_own() {
        let dir = folder("modes");
        let new = dir.join("new.pgn");
        write_atomic(&new, "1. e4 *\n").unwrap();
        // SAFETY: umask(2) only reads and sets this process's mask; set back at once.
        let umask = unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m
        };
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&new), 0o666 & !(umask as u32));
        let shared = dir.join("shared.pgn");
        fs::write(&shared, "old").unwrap();
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o664)).unwrap();
        write_atomic(&shared, "1. d4 *\n").unwrap();
        assert_eq!(mode(&shared), 0o664);
        let private = dir.join("private.toml");
        fs::write(&private, "old").unwrap();
        fs::set_permissions(&private, fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&private, "new").unwrap();
        assert_eq!(mode(&private), 0o600);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_fifo_or_a_device_is_written_into_not_replaced() {
        let dir = folder("fifo");
        let fifo = dir.join("out.csv");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string and a mode.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Nobody reads it: an error at once.
        let err = write_atomic(&fifo, "x").unwrap_err();
        assert!(err.to_string().contains("nothing reads"), "{err}");
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
        };
        // The reader opens it in its own time.
        let mut written = write_atomic(&fifo, "1. e4 *\n");
        for _ in 0..200 {
            if written.is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            written = write_atomic(&fifo, "1. e4 *\n");
        }
        written.unwrap();
        assert_eq!(reader.join().unwrap(), "1. e4 *\n");
        assert!(
            std::os::unix::fs::FileTypeExt::is_fifo(
                &fs::symlink_metadata(&fifo).unwrap().file_type()
            ),
            "still a FIFO"
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_one() {
        let dir = folder("fail");
        let file = dir.join("game.pgn");
        fs::write(&file, "old").unwrap();
        // A folder where the file goes: the rename over it fails, as a full disk fails a write.
        let blocked = dir.join("blocked");
        fs::create_dir_all(blocked.join("x.pgn")).unwrap();
        assert!(write_atomic(&blocked.join("x.pgn"), "new").is_err());
        assert_eq!(fs::read_to_string(&file).unwrap(), "old");
        let leftovers = fs::read_dir(&blocked)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_name() != "x.pgn")
            .count();
        assert_eq!(leftovers, 0);
        let _ = fs::remove_dir_all(&dir);
    }
}
