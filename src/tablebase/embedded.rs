//! The 3- and 4-piece Syzygy tables built into the binary (`assets/syzygy/`, 4.3 MB), served
//! from memory through shakmaty-syzygy's `Filesystem` trait under a virtual directory, and
//! layered over the real filesystem so that directories the user names add larger tables.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use shakmaty_syzygy::filesystem::{Filesystem, RandomAccessFile, ReadHint};

/// The virtual directory the embedded tables appear in.
pub(crate) const DIR: &str = "<embedded>";

macro_rules! tables {
    ($($name:literal,)*) => {
        &[$(($name, include_bytes!(concat!("../../assets/syzygy/", $name)) as &[u8]),)*]
    };
}

/// Every embedded table file: name and contents.
static FILES: &[(&str, &[u8])] = tables![
    "KBBvK.rtbw",
    "KBBvK.rtbz",
    "KBNvK.rtbw",
    "KBNvK.rtbz",
    "KBPvK.rtbw",
    "KBPvK.rtbz",
    "KBvK.rtbw",
    "KBvK.rtbz",
    "KBvKB.rtbw",
    "KBvKB.rtbz",
    "KBvKN.rtbw",
    "KBvKN.rtbz",
    "KBvKP.rtbw",
    "KBvKP.rtbz",
    "KNNvK.rtbw",
    "KNNvK.rtbz",
    "KNPvK.rtbw",
    "KNPvK.rtbz",
    "KNvK.rtbw",
    "KNvK.rtbz",
    "KNvKN.rtbw",
    "KNvKN.rtbz",
    "KNvKP.rtbw",
    "KNvKP.rtbz",
    "KPPvK.rtbw",
    "KPPvK.rtbz",
    "KPvK.rtbw",
    "KPvK.rtbz",
    "KPvKP.rtbw",
    "KPvKP.rtbz",
    "KQBvK.rtbw",
    "KQBvK.rtbz",
    "KQNvK.rtbw",
    "KQNvK.rtbz",
    "KQPvK.rtbw",
    "KQPvK.rtbz",
    "KQQvK.rtbw",
    "KQQvK.rtbz",
    "KQRvK.rtbw",
    "KQRvK.rtbz",
    "KQvK.rtbw",
    "KQvK.rtbz",
    "KQvKB.rtbw",
    "KQvKB.rtbz",
    "KQvKN.rtbw",
    "KQvKN.rtbz",
    "KQvKP.rtbw",
    "KQvKP.rtbz",
    "KQvKQ.rtbw",
    "KQvKQ.rtbz",
    "KQvKR.rtbw",
    "KQvKR.rtbz",
    "KRBvK.rtbw",
    "KRBvK.rtbz",
    "KRNvK.rtbw",
    "KRNvK.rtbz",
    "KRPvK.rtbw",
    "KRPvK.rtbz",
    "KRRvK.rtbw",
    "KRRvK.rtbz",
    "KRvK.rtbw",
    "KRvK.rtbz",
    "KRvKB.rtbw",
    "KRvKB.rtbz",
    "KRvKN.rtbw",
    "KRvKN.rtbz",
    "KRvKP.rtbw",
    "KRvKP.rtbz",
    "KRvKR.rtbw",
    "KRvKR.rtbz",
];

/// The embedded file at `path`, if `path` names one.
fn lookup(path: &Path) -> Option<&'static [u8]> {
    if path.parent() != Some(Path::new(DIR)) {
        return None;
    }
    let name = path.file_name()?.to_str()?;
    FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, data)| *data)
}

/// The paths of the embedded table files, in the virtual directory.
pub fn paths() -> impl Iterator<Item = PathBuf> {
    FILES.iter().map(|(name, _)| Path::new(DIR).join(name))
}

/// Total size of the embedded tables in bytes.
pub fn size() -> usize {
    FILES.iter().map(|(_, data)| data.len()).sum()
}

/// Embedded tables first, then the operating system's files.
pub struct Layered {
    os: Arc<dyn Filesystem>,
}

impl Layered {
    /// Embedded tables over `os`.
    pub fn new(os: Arc<dyn Filesystem>) -> Layered {
        Layered { os }
    }
}

impl Filesystem for Layered {
    fn regular_file_size(&self, path: &Path) -> io::Result<u64> {
        match lookup(path) {
            Some(data) => Ok(data.len() as u64),
            None => self.os.regular_file_size(path),
        }
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        if path == Path::new(DIR) {
            return Ok(paths().collect());
        }
        self.os.read_dir(path)
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn RandomAccessFile>> {
        match lookup(path) {
            Some(data) => Ok(Box::new(Memory(data))),
            None => self.os.open(path),
        }
    }
}

/// A table file in memory.
struct Memory(&'static [u8]);

impl RandomAccessFile for Memory {
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.0.len());
        let n = buf.len().min(self.0.len() - start);
        buf[..n].copy_from_slice(&self.0[start..start + n]);
        Ok(n)
    }
}
