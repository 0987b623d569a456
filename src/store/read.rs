//! Reading a file Knightfall keeps without trusting what stands at its name: a link planted
//! there is not followed, a FIFO does not block, a device such as `/dev/zero` is not read
//! without end, and a file past a size cap is refused, not held in memory.

use std::fs;
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The bytes of the regular file `path`, at most `max_bytes` of them. A link, a FIFO, a device
/// or a folder at `path`, or a file larger than `max_bytes`, is an error that says so.
pub(crate) fn read_checked(path: &Path, max_bytes: u64) -> io::Result<Vec<u8>> {
    read_regular(path, max_bytes, libc::O_NOFOLLOW)
}

/// As [`read_checked`], but a link is followed to the regular file it names: for a file the
/// player keeps, such as the config file, which a dotfiles folder often links to.
pub(crate) fn read_linked(path: &Path, max_bytes: u64) -> io::Result<Vec<u8>> {
    read_regular(path, max_bytes, 0)
}

/// Opens the regular file `path` for reading, with `flags` (`O_NOFOLLOW` or none) beside
/// `O_NONBLOCK`; a link (with `O_NOFOLLOW`), a FIFO, a device or a folder is an error that says
/// so, at once. Returns it and its length.
pub(crate) fn open_regular(path: &Path, flags: i32) -> io::Result<(fs::File, u64)> {
    let file = fs::OpenOptions::new()
        .read(true)
        // O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one for ever.
        .custom_flags(flags | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => io::Error::other(format!("{} is a link", path.display())),
            _ => e,
        })?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other(format!(
            "{} is not a regular file",
            path.display()
        )));
    }
    Ok((file, meta.len()))
}

fn read_regular(path: &Path, max_bytes: u64, flags: i32) -> io::Result<Vec<u8>> {
    let (file, len) = open_regular(path, flags)?;
    if len > max_bytes {
        return Err(too_large(path, max_bytes));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // The file may grow while it is read: the cap holds all the same.
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large(path, max_bytes));
    }
    Ok(bytes)
}

/// The text of the regular file `path` (see [`read_checked`]), bytes that are no UTF-8 read
/// as replacement characters (a name in Latin-1 is no damage).
pub(crate) fn read_text_checked(path: &Path, max_bytes: u64) -> io::Result<String> {
    read_checked(path, max_bytes).map(|b| String::from_utf8_lossy(&b).into_owned())
}

fn too_large(path: &Path, max_bytes: u64) -> io::Error {
    io::Error::other(format!(
        "{} is larger than {} KB",
        path.display(),
        max_bytes >> 10
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_a_link_a_device_and_a_large_file_are_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string and a mode.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(read_checked(&fifo, 1 << 20).is_err());
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let err = read_checked(&link, 1 << 20).unwrap_err();
        assert!(err.to_string().contains("is a link"), "{err}");
        assert!(read_checked(Path::new("/dev/zero"), 1 << 20).is_err());
        let big = dir.path().join("big");
        fs::write(&big, vec![b'x'; 2048]).unwrap();
        assert!(read_checked(&big, 1024).is_err());
        assert_eq!(read_checked(&big, 4096).unwrap().len(), 2048);
    }
}
