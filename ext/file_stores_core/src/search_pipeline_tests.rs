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
    crate::pool::scope(|scope, threads| {
        let spawn = || {
            if let Some(scope) = scope {
                scope.spawn(|_| pipeline.help(|| (), |_: &mut (), item| work(item)));
            }
        };
        pipeline.drain(
            threads.max(2),
            &spawn,
            || (),
            |_: &mut (), item| work(item),
            consume,
            check,
            || "broken".to_string(),
        )
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
fn a_producer_thread_feeds_items_in_order_within_its_capacity() {
    let (ahead, capacity, n) = (8, 12, 2000u64);
    let pipeline = Pipeline::new(ahead, capacity);
    let consumed = AtomicUsize::new(0);
    let mut seen = Vec::new();
    let end = thread::scope(|scope| {
        scope.spawn(|| {
            let _close = CloseOnDrop(&pipeline);
            for i in 0..n {
                jitter(i);
                // Never more than `capacity` queued and not yet taken.
                assert!(i as usize <= consumed.load(Ordering::SeqCst) + capacity + ahead);
                assert!(pipeline.push(i));
            }
        });
        drain_all(
            &pipeline,
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
        )
    });
    assert_eq!(end, Ok(End::Finished));
    assert_eq!(seen, (0..n).collect::<Vec<_>>());
}

#[test]
fn stopping_at_a_cap_wastes_little_and_stops_the_producer() {
    let ahead = 16;
    let pipeline = Pipeline::new(ahead, ahead + 4);
    let worked = AtomicUsize::new(0);
    let mut seen = Vec::new();
    let (end, pushed) = thread::scope(|scope| {
        let producer = scope.spawn(|| {
            let _close = CloseOnDrop(&pipeline);
            let mut pushed = 0u64;
            while pipeline.push(pushed) {
                pushed += 1;
            }
            pushed
        });
        let end = drain_all(
            &pipeline,
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
        (end, producer.join().unwrap())
    });
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
fn works_alone_without_helpers() {
    let pipeline = Pipeline::with_items(0..500u64, 8);
    let mut seen = Vec::new();
    let end = pipeline.drain(
        0,
        &|| unreachable!("no helper may be started"),
        || (),
        |_: &mut (), &i| i + 1,
        |item, outcome| {
            assert_eq!(outcome, item + 1);
            seen.push(item);
            Ok::<_, ()>(true)
        },
        || Ok(()),
        || (),
    );
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
