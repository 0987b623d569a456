//! A large file brought in from elsewhere (a lichess export, lichess's puzzle database) read as
//! a stream: plain or compressed with zstd (known by its first bytes, not its name), with a
//! count of the file's bytes read so far for a progress bar, and a progress bar on standard
//! error that shows only on a terminal.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// zstd's frame magic number, as it starts a file.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// A file opened for streaming.
pub struct Stream {
    /// Its text, decompressed where it was compressed.
    pub reader: Box<dyn BufRead + Send>,
    /// The file's size on disk.
    pub len: u64,
    /// The file's bytes read so far (of the compressed file, where it is compressed).
    pub read: Arc<AtomicU64>,
    /// Whether it was compressed with zstd.
    pub compressed: bool,
}

/// Counts the bytes read through it.
struct Counted {
    inner: File,
    read: Arc<AtomicU64>,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Opens the regular file `path` (a link is followed; a FIFO or a device is refused) as a
/// stream, decompressing it when it is zstd.
pub fn open(path: &Path) -> Result<Stream> {
    let (file, len) = super::read::open_regular(path, 0)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let read = Arc::new(AtomicU64::new(0));
    let mut buffered = BufReader::with_capacity(
        1 << 16,
        Counted {
            inner: file,
            read: read.clone(),
        },
    );
    let compressed = buffered
        .fill_buf()
        .with_context(|| format!("cannot read {}", path.display()))?
        .starts_with(&ZSTD_MAGIC);
    let reader: Box<dyn BufRead + Send> = if compressed {
        let decoder = zstd::stream::read::Decoder::with_buffer(buffered)
            .with_context(|| format!("cannot read {} as zstd", path.display()))?;
        Box::new(BufReader::with_capacity(1 << 16, decoder))
    } else {
        Box::new(buffered)
    };
    Ok(Stream {
        reader,
        len,
        read,
        compressed,
    })
}

/// A progress bar of `len` bytes on standard error, saying `what`; drawn only when standard
/// error is a terminal, so scripts and logs get the summary alone.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template(
            // The bar takes the width the rest leaves, so the line fits an 80-column terminal.
            "{msg} [{wide_bar}] {percent:>3}% of {total_bytes}, about {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zstd_file_reads_as_its_text_and_a_plain_one_as_itself() {
        let dir = tempfile::tempdir().unwrap();
        let text = "[Event \"x\"]\n\n1. e4 e5 *\n".repeat(100);
        let plain = dir.path().join("a.pgn");
        std::fs::write(&plain, &text).unwrap();
        // Named as plain text: the first bytes tell, not the name.
        let packed = dir.path().join("b.pgn");
        std::fs::write(&packed, zstd::encode_all(text.as_bytes(), 3).unwrap()).unwrap();
        for (file, compressed) in [(plain, false), (packed, true)] {
            let mut s = open(&file).unwrap();
            let mut back = String::new();
            s.reader.read_to_string(&mut back).unwrap();
            assert_eq!(back, text);
            assert_eq!(s.compressed, compressed);
            assert_eq!(s.read.load(Ordering::Relaxed), s.len);
        }
    }

    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("f");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(open(&fifo).is_err());
    }
}
