//! The ordered pipeline on its own: order under random delays, the caps on
//! look-ahead, stopping, cancellation, a deadline, a panicking helper.

use super::*;
use std::sync::atomic::AtomicUsize;
use std::thread;
use std::time::Instant;

/// Work that takes a random while: mostly nothing, sometimes a spin, now
/// and then a sleep (a thread descheduled mid-item).
fn jitter(seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    match rng.u8(0..20) {
        0 => thread::sleep(Duration::from_micros(rng.u64(100..2000))),
        1..=5 => {
            let until = Instant::now() + Duration::from_micros(rng.u64(1..50));
            while Instant::now() < until {
                std::hint::spin_loop();
            }
        }
        _ => {}
    }
}

/// Drains `pipeline` with the pool's threads as helpers; `work` maps an
/// item, `consume` takes outcomes (false: stop), `check` may cancel.
fn drain_all<O: Send>(
    pipeline: &Pipeline<u64, O>,
    work: impl Fn(&u64) -> O + Sync,
    consume: impl FnMut(u64, O) -> Result<bool, String>,
    check: impl Fn() -> Result<(), String>,
) -> Result<End, String> {
    drain_producing(pipeline, None, work, consume, check)
}

/// [`drain_all`] of an open pipeline, whose items `produce` gives.
fn drain_producing<O: Send>(
    pipeline: &Pipeline<u64, O>,
    produce: Option<&mut Producer<'_, u64, String>>,
    work: impl Fn(&u64) -> O + Sync,
    consume: impl FnMut(u64, O) -> Result<bool, String>,
    check: impl Fn() -> Result<(), String>,
) -> Result<End, String> {
    file_stores_store::pool::scope(|scope, threads| {
        let spawn = || {
            if let Some(scope) = scope {
                scope.spawn(|_| pipeline.help(|| (), |_: &mut (), item| work(item)));
            }
        };
        pipeline.drain(Drain {
            helpers: threads.max(2),
            spawn: &spawn,
            produce,
            init: || (),
            work: |_: &mut (), item: &u64| work(item),
            consume,
            check,
            broken: || "broken".to_string(),
        })
    })
}

#[test]
fn outcomes_come_in_order_under_random_delays() {
    for (round, ahead) in [1, 2, 3, 16, 256].into_iter().enumerate() {
        let n = 3000u64;
        let pipeline = Pipeline::with_items(0..n, ahead);
        let mut seen = Vec::new();
        let end = drain_all(
            &pipeline,
            |&i| {
                jitter(i * 31 + round as u64);
                i * 2
            },
            |item, outcome| {
                assert_eq!(outcome, item * 2, "an outcome stays with its item");
                seen.push(item);
                Ok(true)
            },
            || Ok(()),
        );
        assert_eq!(end, Ok(End::Finished));
        assert_eq!(seen, (0..n).collect::<Vec<_>>(), "ahead {ahead}");
    }
}

#[test]
fn a_producer_feeds_items_in_order_within_its_capacity() {
    let (ahead, capacity, n) = (8, 12, 2000u64);
    let pipeline = Pipeline::new(ahead, capacity);
    let consumed = AtomicUsize::new(0);
    let mut seen = Vec::new();
    let mut rng = fastrand::Rng::with_seed(5);
    let mut next = 0;
    let mut produce = |items: &mut Vec<u64>, room: usize| {
        jitter(next);
        // Asked for no more than there is room for: never more than
        // `capacity` queued past the outcomes the drainer holds.
        assert!(room >= 1 && room <= capacity);
        assert!(next as usize <= consumed.load(Ordering::SeqCst) + capacity + ahead);
        let chunk = rng.u64(1..6).min(room as u64);
        items.extend(next..n.min(next + chunk));
        next = n.min(next + chunk);
        Ok(next < n)
    };
    let end = drain_producing(
        &pipeline,
        Some(&mut produce),
        |&i| {
            jitter(i * 7 + 1);
            // Never searched more than `ahead` (plus the outcomes the
            // drainer holds, at most `ahead` more) past the report.
            assert!((i as usize) < consumed.load(Ordering::SeqCst) + 2 * ahead);
            i
        },
        |item, _| {
            seen.push(item);
            consumed.fetch_add(1, Ordering::SeqCst);
            Ok(true)
        },
        || Ok(()),
    );
    assert_eq!(end, Ok(End::Finished));
    assert_eq!(seen, (0..n).collect::<Vec<_>>());
}

#[test]
fn stopping_at_a_cap_wastes_little_and_stops_the_producer() {
    let ahead = 16;
    let pipeline = Pipeline::new(ahead, ahead + 4);
    let worked = AtomicUsize::new(0);
    let mut seen = Vec::new();
    let mut pushed = 0u64;
    let mut produce = |items: &mut Vec<u64>, room: usize| {
        items.extend(pushed..pushed + room as u64);
        pushed += room as u64;
        Ok(true)
    };
    let end = drain_producing(
        &pipeline,
        Some(&mut produce),
        |&i| {
            jitter(i);
            worked.fetch_add(1, Ordering::SeqCst);
        },
        |item, ()| {
            seen.push(item);
            Ok(seen.len() < 100)
        },
        || Ok(()),
    );
    assert_eq!(end, Ok(End::Stopped));
    assert_eq!(seen, (0..100).collect::<Vec<_>>());
    assert!(worked.load(Ordering::SeqCst) <= 100 + 2 * ahead);
    assert!(pushed < 100 + 2 * ahead as u64 + 4, "pushed {pushed}");
    assert!(pipeline.halted());
}

#[test]
fn a_cancel_stops_before_the_next_outcome_is_taken() {
    let pipeline = Pipeline::with_items(0..5000u64, 64);
    let cancelled = AtomicBool::new(false);
    let mut seen = Vec::new();
    let end = drain_all(
        &pipeline,
        |&i| {
            jitter(i);
            if i == 700 {
                cancelled.store(true, Ordering::SeqCst);
            }
        },
        |item, ()| {
            seen.push(item);
            Ok(true)
        },
        || {
            if cancelled.load(Ordering::SeqCst) {
                Err("cancelled".to_string())
            } else {
                Ok(())
            }
        },
    );
    assert_eq!(end, Err("cancelled".to_string()));
    assert!(seen.len() <= 700, "took {} outcomes", seen.len());
    assert_eq!(seen, (0..seen.len() as u64).collect::<Vec<_>>());
}

#[test]
fn a_deadline_ends_with_a_prefix_in_order() {
    // As a search does: past the deadline, work says "interrupted", and the
    // consumer stops at the first such outcome.
    let pipeline = Pipeline::with_items(0..1_000_000u64, 64);
    let deadline = Instant::now() + Duration::from_millis(30);
    let mut seen = Vec::new();
    let end = drain_all(
        &pipeline,
        |&i| {
            jitter(i);
            Instant::now() < deadline
        },
        |item, in_time| {
            if in_time {
                seen.push(item);
            }
            Ok(in_time)
        },
        || Ok(()),
    );
    assert_eq!(end, Ok(End::Stopped));
    assert!(seen.len() < 1_000_000);
    assert_eq!(seen, (0..seen.len() as u64).collect::<Vec<_>>());
}

#[test]
fn a_short_search_is_not_held_up_by_a_long_one_beside_it() {
    let long_worked = AtomicUsize::new(0);
    thread::scope(|scope| {
        scope.spawn(|| {
            // About a second of work for three threads, its helpers busy.
            let pipeline = Pipeline::with_items(0..3000u64, 64);
            let end = drain_all(
                &pipeline,
                |_| {
                    thread::sleep(Duration::from_millis(1));
                    long_worked.fetch_add(1, Ordering::SeqCst);
                },
                |_, ()| Ok(true),
                || Ok(()),
            );
            assert_eq!(end, Ok(End::Finished));
        });
        thread::sleep(Duration::from_millis(50));
        for _ in 0..5 {
            // Its helpers wait in the pool's queue behind the long search's.
            let pipeline = Pipeline::with_items(0..20u64, 64);
            let end = drain_all(&pipeline, |_| (), |_, ()| Ok(true), || Ok(()));
            assert_eq!(end, Ok(End::Finished));
        }
        let worked = long_worked.load(Ordering::SeqCst);
        assert!(
            worked < 2000,
            "the short searches waited for the long one's helpers ({worked} of its items done)"
        );
    });
}

#[test]
fn works_alone_without_helpers() {
    let pipeline = Pipeline::with_items(0..500u64, 8);
    let mut seen = Vec::new();
    let end = pipeline.drain(Drain {
        helpers: 0,
        spawn: &|| unreachable!("no helper may be started"),
        produce: None,
        init: || (),
        work: |_: &mut (), &i: &u64| i + 1,
        consume: |item, outcome| {
            assert_eq!(outcome, item + 1);
            seen.push(item);
            Ok::<_, ()>(true)
        },
        check: || Ok(()),
        broken: || (),
    });
    assert_eq!(end, Ok(End::Finished));
    assert_eq!(seen, (0..500).collect::<Vec<_>>());
}

#[test]
fn a_panicking_item_ends_the_search_instead_of_hanging_it() {
    for round in 0..20u64 {
        let pipeline = Pipeline::with_items(0..400u64, 32);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            drain_all(
                &pipeline,
                |&i| {
                    jitter(i + round);
                    assert!(i != 150, "item 150 fails");
                },
                |_, ()| Ok(true),
                || Ok(()),
            )
        }));
        // Either the panic reaches the caller, or the drain reports it.
        assert!(
            matches!(result, Err(_) | Ok(Err(_))),
            "round {round}: {result:?}"
        );
    }
}

// The search itself, through the pipeline.

use crate::search::{Options, Search};
use file_stores_base::cancel::Cancel;

fn many_docs(n: usize) -> Vec<(String, Option<Vec<u8>>)> {
    (0..n)
        .map(|i| {
            let text = format!("line {i}\nhit {i}\n{}", "filler text\n".repeat(i % 50));
            (
                format!("d{:02}/f{i:05}.txt", i % 37),
                Some(text.into_bytes()),
            )
        })
        .collect()
}

fn uncapped() -> Options {
    Options {
        max_matches: None,
        max_chars: None,
        ..Options::default()
    }
}

#[test]
fn a_feed_cancelled_half_way_goes_on_where_it_stopped() {
    let docs = many_docs(4000);
    let search = Search::new("hit", uncapped()).unwrap();
    let whole = search.texts(&docs, &Cancel::new()).unwrap().text();
    let mut partial = 0;
    // The flag sets itself at the n-th look, wherever the pipeline is then.
    for checks in [1, 10, 100, 1000, 3000] {
        let mut report = search.report();
        let mut fed = 0;
        let cancel = Cancel::after_checks(checks);
        let first = search.feed_from(&mut report, &docs, &cancel, &mut fed);
        let e = first.expect_err("a flag set mid-feed stops it");
        assert!(e.is_cancelled());
        assert!(fed < docs.len(), "{checks}: fed {fed}");
        partial += usize::from(fed > 0);
        // As the binding does after an interrupt that raised nothing.
        let again = search.feed_from(&mut report, &docs, &Cancel::new(), &mut fed);
        assert!(again.unwrap(), "the search goes on");
        assert_eq!(fed, docs.len());
        assert_eq!(report.finish().text(), whole, "cancelled at look {checks}");
    }
    assert!(partial > 0, "no feed was cancelled after taking some files");
}

#[test]
fn a_deadline_shows_a_prefix_of_the_output_with_no_gap() {
    let docs = many_docs(20_000);
    let whole = Search::new("hit", uncapped())
        .unwrap()
        .texts(&docs, &Cancel::new())
        .unwrap()
        .text();
    for ms in [0, 1, 3, 10] {
        let opts = Options {
            deadline: Some(Instant::now() + Duration::from_millis(ms)),
            ..uncapped()
        };
        let out = Search::new("hit", opts)
            .unwrap()
            .texts(&docs, &Cancel::new())
            .unwrap()
            .text();
        let Some(at) = out.find("[Stopped: the search ran out of time after ") else {
            assert_eq!(out, whole, "finished within {ms} ms");
            continue;
        };
        let (lines, note) = out.split_at(at);
        let lines = lines.strip_prefix("No matches.\n").unwrap_or(lines);
        assert!(whole.starts_with(lines), "a gap in the output at {ms} ms");
        let files: usize = note["[Stopped: the search ran out of time after ".len()..]
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap();
        // Each file has one hit here: the files covered are the lines shown.
        assert_eq!(files, lines.lines().count(), "{note}");
    }
}

#[test]
fn a_producer_that_adds_nothing_ends_the_items() {
    let pipeline: Pipeline<u64, u64> = Pipeline::new(8, 8);
    let mut asked = 0;
    let mut produce = |_: &mut Vec<u64>, _: usize| {
        asked += 1;
        Ok(true)
    };
    let end = drain_producing(
        &pipeline,
        Some(&mut produce),
        |&i| i,
        |_, _| Ok(true),
        || Ok(()),
    );
    assert_eq!(end, Ok(End::Finished));
    assert_eq!(asked, 1);
}
