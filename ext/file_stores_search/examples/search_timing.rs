//! Times `Search::folder` on a folder, without Ruby, to see where a search
//! spends its time (the bench in `bench/search_bench.rb` times it from Ruby):
//!
//!     cargo run --release -p file_stores_search --example search_timing -- DIR PATTERN [uncapped|files_only|capped] [RUNS] [GLOB]
//!
//! Prints the fastest and the median run's wall time, and the output's size.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use file_stores_base::Cancel;
use file_stores_search::glob::PathGlob;
use file_stores_search::{Options, Search};
use file_stores_store::DirStore;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, pattern, rest @ ..] = args.as_slice() else {
        return Err(
            "usage: search_timing DIR PATTERN [uncapped|files_only|capped] [RUNS] [GLOB]".into(),
        );
    };
    let mode = rest.first().map_or("uncapped", String::as_str);
    let runs: usize = rest.get(1).map_or(Ok(10), |r| r.parse())?.max(1);
    let glob = rest.get(2).map(|g| PathGlob::new(g, "")).transpose()?;
    let mut opts = Options::default();
    if mode != "capped" {
        opts.max_matches = None;
        opts.max_chars = None;
    }
    opts.files_only = mode == "files_only";
    let store = DirStore::open(Path::new(dir), None)?;
    let search = Search::new(pattern, opts).map_err(|e| e.to_string())?;
    let cancel = Cancel::new();
    let texts = HashMap::new();
    let mut times = Vec::with_capacity(runs);
    let mut bytes = 0;
    for _ in 0..runs {
        let started = Instant::now();
        let out = search
            .folder(&store.root_fd(), "", glob.as_ref(), &texts, &cancel)?
            .text();
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        bytes = out.len();
    }
    times.sort_by(f64::total_cmp);
    let (fastest, median) = (times[0], times[runs / 2]);
    println!("{mode} {pattern:?}: fastest {fastest:.1} ms, median {median:.1} ms of {runs} runs; {bytes} bytes");
    Ok(())
}
