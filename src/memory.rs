//! How much memory the machine can spare, so that a hash table larger than that is refused with
//! a message instead of being allocated until the kernel kills the program.

/// Megabytes the kernel says can be allocated without swapping (`MemAvailable` in
/// `/proc/meminfo`), or `None` where that is not known.
pub(crate) fn available_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Checks that `mb` more megabytes fit in what the machine can spare (with a tenth to spare
/// for everything else); `freed` megabytes are given back first (the table being replaced).
pub(crate) fn check_fits(mb: u64, freed: u64) -> Result<(), String> {
    match available_mb() {
        Some(free) if mb > (free + freed) * 9 / 10 => Err(format!(
            "{mb} MB is more than this machine can spare ({} MB free)",
            free + freed
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_than_the_machine_has_is_refused() {
        let Some(free) = available_mb() else {
            return; // not Linux: nothing to check against
        };
        assert!(free > 0);
        let err = check_fits(free * 2 + 1000, 0).unwrap_err();
        assert!(err.contains("more than this machine can spare"), "{err}");
        assert!(check_fits(1, 0).is_ok());
        // What the old table gives back counts.
        assert!(check_fits(free / 2 + 100, free).is_ok());
    }
}
