//! The end-of-central-directory record, found and checked before the zip
//! crate opens the file.
//!
//! The record is the last thing in a zip: 22 bytes, then a comment of at
//! most 65,535 bytes whose length the record states. So it lies in the last
//! 64 KiB + 22 bytes, and an honest file has one signature there (two or three
//! at the very most, when an archive was appended to or its comment quotes
//! one). A file with more is refused before the zip crate tries each of them
//! in turn (see [`super::source`] for what that costs), and so is one where
//! no record's comment fits in the file.

use file_stores_base::error::{Error, Result};

/// The record's signature, `PK\x05\x06`.
const SIGNATURE: [u8; 4] = [0x50, 0x4B, 0x05, 0x06];
/// The record's fixed length, before its comment.
const RECORD: usize = 22;
/// The longest comment a record can state.
const MAX_COMMENT: usize = u16::MAX as usize;
/// The most record signatures accepted in the last 64 KiB + 22 bytes.
pub const MAX_CANDIDATES: usize = 4;

/// Checks that the file ends in a plausible end-of-central-directory record:
/// at most [`MAX_CANDIDATES`] signatures in the window where one may lie, and
/// at least one whose stated comment ends within the file (trailing bytes
/// after the comment are accepted, as the zip crate and Python's zipfile do).
pub fn check(bytes: &[u8]) -> Result<()> {
    let start = bytes.len().saturating_sub(RECORD + MAX_COMMENT);
    let window = &bytes[start..];
    let mut candidates = 0;
    let mut fits = false;
    for at in memchr::memmem::rfind_iter(window, &SIGNATURE) {
        candidates += 1;
        if candidates > MAX_CANDIDATES {
            return Err(Error::conversion(format!(
                "its zip archive ends in more than {MAX_CANDIDATES} end-of-central-directory records, which no honest file has; it looks crafted to make reading it slow"
            )));
        }
        let at = start + at;
        let Some(record) = bytes.get(at..at + RECORD) else {
            continue;
        };
        let comment = usize::from(u16::from_le_bytes([record[20], record[21]]));
        if at + RECORD + comment <= bytes.len() {
            fits = true;
        }
    }
    if fits {
        Ok(())
    } else {
        Err(Error::conversion(
            "it is not a valid Office file: the zip archive is corrupt or truncated (it has no end-of-central-directory record)",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(comment: &[u8]) -> Vec<u8> {
        let mut out = SIGNATURE.to_vec();
        out.extend([0u8; 16]);
        out.extend((comment.len() as u16).to_le_bytes());
        out.extend(comment);
        out
    }

    #[test]
    fn accepts_one_record_with_or_without_a_comment() {
        assert!(check(&record(b"")).is_ok());
        let mut bytes = vec![1u8; 100_000];
        bytes.extend(record(b"made by hand"));
        assert!(check(&bytes).is_ok());
        bytes.extend(b"trailing junk");
        assert!(check(&bytes).is_ok());
    }

    #[test]
    fn refuses_many_records_at_the_end() {
        let bytes = record(b"").repeat(MAX_CANDIDATES + 1);
        let err = check(&bytes).expect_err("too many").to_string();
        assert!(
            err.contains("more than 4 end-of-central-directory records"),
            "{err}"
        );
        assert!(check(&record(b"").repeat(MAX_CANDIDATES)).is_ok());
    }

    #[test]
    fn refuses_a_file_without_a_record_or_whose_comment_runs_past_the_end() {
        assert!(check(b"").is_err());
        assert!(check(b"not a zip").is_err());
        let mut cut = record(b"a comment");
        cut.truncate(cut.len() - 1);
        assert!(check(&cut).is_err());
        // A record cut short of its 22 bytes is no record.
        assert!(check(&SIGNATURE).is_err());
    }

    #[test]
    fn looks_only_in_the_last_64_kib_and_22_bytes() {
        let mut bytes = record(b"").repeat(100);
        bytes.extend(vec![0u8; RECORD + MAX_COMMENT]);
        // The records are out of reach and none ends the file.
        assert!(check(&bytes).is_err());
        bytes.extend(record(b""));
        assert!(check(&bytes).is_ok());
    }
}
