//! Dumps every sheet of each .xlsx file named on the command line as
//! tab-separated rows, the least a reader can do, and prints one line:
//! `files=N failed=F bytes=B seconds=S cpu=C` (S is the wall time of reading
//! and converting, without process start-up; C the CPU time it took). `--repeat K` converts the whole list K times; `--print` writes
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

/// The CPU time this process has used, in seconds.
fn cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only to the timespec passed, which lives
    // on this stack frame.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
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
    let cpu = cpu_seconds();
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
    let cpu = cpu_seconds() - cpu;
    let _ = writeln!(
        std::io::stdout(),
        "files={count} failed={failed} bytes={bytes} seconds={seconds:.6} cpu={cpu:.6}"
    );
}
