//! The machine's physical memory, which bounds the hash size (UCI `Hash`,
//! XBoard `memory`).
//!
//! On Linux it is `MemTotal` of `/proc/meminfo`. Elsewhere the engine does
//! not ask (that would take a system call through `unsafe` code for a
//! bound that is only a courtesy): the hash range then keeps its fixed
//! ceiling, and an allocation the machine cannot grant falls back to the
//! largest fraction it can (see [`TranspositionTable::new`]).
//!
//! [`TranspositionTable::new`]: crate::search::tt::TranspositionTable::new

/// Physical memory in MiB, or `None` where it cannot be read.
pub fn physical_mib() -> Option<u64> {
    physical_mib_from_os()
}

#[cfg(target_os = "linux")]
fn physical_mib_from_os() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_total_mib(&text)
}

#[cfg(not(target_os = "linux"))]
fn physical_mib_from_os() -> Option<u64> {
    None
}

/// `MemTotal` of a `/proc/meminfo` text (`MemTotal:  24576000 kB`), in MiB.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn mem_total_mib(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line["MemTotal:".len()..].split_whitespace();
    let kib: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kib / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_total() {
        let text = "MemTotal:       24576000 kB\nMemFree:        1000 kB\n";
        assert_eq!(mem_total_mib(text), Some(24_000));
        assert_eq!(mem_total_mib("MemFree: 1000 kB\n"), None);
        assert_eq!(mem_total_mib("MemTotal: lots kB\n"), None);
        assert_eq!(mem_total_mib("MemTotal: 1000 pages\n"), None);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn this_machine_has_memory() {
        assert!(physical_mib().is_some_and(|mib| mib > 0));
    }
}
