//! Opening hostile zips: many end-of-central-directory records, and a
//! cancelled open.

use super::*;

/// A central directory of `entries` empty entries, then `records` end
/// records each claiming one entry more than there is (so each fails at its
/// last entry, after parsing all the others), then `gap` zero bytes and one
/// last such record.
fn many_records(entries: usize, records: usize, gap: usize) -> Vec<u8> {
    let mut cd = Vec::new();
    for i in 0..entries {
        let name = format!("p{i:06}.xml");
        cd.extend(0x0201_4b50u32.to_le_bytes());
        cd.extend([20, 0, 20, 0]);
        cd.extend([0u8; 20]);
        cd.extend((name.len() as u16).to_le_bytes());
        cd.extend([0u8; 16]);
        cd.extend(name.as_bytes());
    }
    let count = (entries as u16 + 1).to_le_bytes();
    let mut record = 0x0605_4b50u32.to_le_bytes().to_vec();
    record.extend([0, 0, 0, 0]);
    record.extend(count);
    record.extend(count);
    record.extend((cd.len() as u32).to_le_bytes());
    record.extend([0, 0, 0, 0, 0, 0]);
    let mut out = cd;
    for _ in 0..records {
        out.extend(&record);
    }
    out.extend(vec![0u8; gap]);
    out.extend(&record);
    out
}

#[test]
fn refuses_thousands_of_end_records_before_the_zip_crate_tries_them() {
    let bytes = many_records(100, 5000, 0);
    let cancel = Cancel::new();
    let err = Archive::open(&bytes, Limits::default(), &cancel)
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("end-of-central-directory records"), "{err}");
}

#[test]
fn stops_the_zip_crate_retrying_end_records_out_of_the_window() {
    // One record in the last 64 KiB, 2,000 more before it: the zip crate
    // would parse the 3,000-entry directory 2,001 times.
    let bytes = many_records(3000, 2000, 70_000);
    let cancel = Cancel::new();
    let started = std::time::Instant::now();
    let err = Archive::open(&bytes, Limits::default(), &cancel)
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("reads of the file to open"), "{err}");
    assert!(started.elapsed().as_secs() < 5);
}

#[test]
fn a_cancelled_open_is_cancelled() {
    let bytes = crate::testing::zip_of(&[("a.xml", "<a/>")]);
    let cancel = Cancel::new();
    cancel.cancel();
    let err = Archive::open(&bytes, Limits::default(), &cancel).err();
    assert!(err.is_some_and(|e| e.is_cancelled()));
}

#[test]
fn opens_an_honest_zip_and_reads_its_parts_after_the_open_budget() {
    // Parts read after the open are not counted against the open's budget:
    // a small file read many times over.
    let bytes = crate::testing::zip_of(&[("a.xml", &"<a/>".repeat(1000))]);
    let cancel = Cancel::new();
    let mut archive = Archive::open(&bytes, Limits::default(), &cancel).expect("opens");
    for _ in 0..2000 {
        assert!(archive.read("a.xml").expect("reads").is_some());
    }
}
