//! Dumps every sheet of each .xlsx file named on the command line as
//! tab-separated rows, the least a reader can do, and prints one line:
//! `files=N bytes=B seconds=S` (S covers reading and converting, not process
//! startup). `--repeat K` converts the whole list K times; `--print` writes
//! the text to stdout instead.

use std::fmt::Write as _;
use std::io::{Cursor, Write as _};
use std::time::Instant;

use calamine::{Reader, Xlsx};

fn dump(bytes: Vec<u8>, out: &mut String) -> Result<(), String> {
    let mut book = Xlsx::new(Cursor::new(bytes)).map_err(|e| e.to_string())?;
    for name in book.sheet_names() {
        let range = book.worksheet_range(&name).map_err(|e| e.to_string())?;
        let _ = writeln!(out, "## {name}");
        for row in range.rows() {
            for (i, cell) in row.iter().enumerate() {
                if i > 0 {
                    out.push('\t');
                }
                let _ = write!(out, "{cell}");
            }
            out.push('\n');
        }
    }
    Ok(())
}

fn main() {
    let mut repeat = 1;
    let mut print = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--repeat" => repeat = args.next().and_then(|n| n.parse().ok()).unwrap_or(1),
            "--print" => print = true,
            _ => files.push(arg),
        }
    }
    let start = Instant::now();
    let (mut count, mut bytes, mut failed) = (0usize, 0usize, 0usize);
    for _ in 0..repeat {
        for file in &files {
            let mut out = String::new();
            let result = std::fs::read(file)
                .map_err(|e| e.to_string())
                .and_then(|b| dump(b, &mut out));
            match result {
                Ok(()) => {
                    count += 1;
                    bytes += out.len();
                    if print {
                        let _ = std::io::stdout().write_all(out.as_bytes());
                    }
                }
                Err(e) => {
                    failed += 1;
                    eprintln!("{file}: {e}");
                }
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    println!("files={count} failed={failed} bytes={bytes} seconds={seconds:.6}");
}
