//! Sizes as messages say them: `64 MiB`, `512 KiB`, `100 bytes`.

/// Formats a byte count for messages: `64 MiB`, `512 KiB`, `100 bytes`.
pub(crate) fn bytes(n: usize) -> String {
    const MIB: usize = 1024 * 1024;
    if n >= MIB && n.is_multiple_of(MIB) {
        format!("{} MiB", n / MIB)
    } else if n >= MIB {
        format!("{:.1} MiB", n as f64 / MIB as f64)
    } else if n >= 1024 {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_read_as_people_write_them() {
        assert_eq!(bytes(64 * 1024 * 1024), "64 MiB");
        assert_eq!(bytes(3 * 1024 * 1024 / 2), "1.5 MiB");
        assert_eq!(bytes(2048), "2 KiB");
        assert_eq!(bytes(100), "100 bytes");
    }
}
