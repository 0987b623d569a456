//! Standard output and standard error for the commands: a reader that went away (`| head`)
//! ends the command quietly, a full disk (`> /dev/full`) ends it with a message, and neither
//! is ever a panic, as `println!` makes them.

use std::fmt;
use std::io::{self, Write};

use thiserror::Error;

/// Standard output was closed by its reader: the command stops, and the program exits 0
/// without a word, as `man` and `cat` do.
#[derive(Debug, Error)]
#[error("standard output was closed")]
pub struct Closed;

/// Writes `args` to standard output. A closed pipe gives [`Closed`], any other failure (a full
/// disk, a file-size limit) an error that says so.
pub fn write(args: fmt::Arguments<'_>) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_fmt(args)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => anyhow::Error::new(Closed),
            _ => anyhow::Error::new(e).context("writing standard output"),
        })
}

/// Writes `args` to standard error; a message nobody can read is not a second error.
pub fn note(args: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.flush());
}

/// Whether `err` is standard output closed by its reader (see [`Closed`]).
pub fn closed(err: &anyhow::Error) -> bool {
    err.chain().any(|e| e.is::<Closed>())
}

/// `println!` through [`write()`]: gives `anyhow::Result<()>` to `?` instead of panicking.
macro_rules! say {
    () => {
        $crate::output::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` through [`note`]: never panics.
macro_rules! tell {
    () => {
        $crate::output::note(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::note(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {say, tell};
