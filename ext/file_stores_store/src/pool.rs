//! The worker threads for parallel listing, hashing and searching.
//!
//! Rayon's global pool does not survive `fork`: the child inherits the pool's
//! bookkeeping but none of its threads, so the first parallel call in the
//! child waits for ever. Rails servers and job runners fork after boot
//! (Puma's preload_app, Unicorn, Resque), so the pool here belongs to the
//! process that built it: a process whose id differs builds its own, and the
//! parent's (threadless in the child) is leaked, never dropped, since
//! dropping it would wait on threads that do not exist.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rayon::{ThreadPool, ThreadPoolBuilder};

static POOL: Mutex<Option<(u32, &'static ThreadPool)>> = Mutex::new(None);

/// Calls of [`install`] and [`scope`] under way, across threads.
static USERS: AtomicUsize = AtomicUsize::new(0);

/// Whether more than one call uses the pool now: a job that takes turns
/// should then leave the pool after each, so the others' jobs run too.
pub fn shared() -> bool {
    USERS.load(Ordering::Relaxed) > 1
}

/// Counts a call of the pool while it lasts (and should it unwind).
struct User;

impl User {
    fn enter() -> User {
        USERS.fetch_add(1, Ordering::Relaxed);
        User
    }
}

impl Drop for User {
    fn drop(&mut self) {
        USERS.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Runs `work` in this process's pool, so that `par_iter` and `rayon::join`
/// inside it use threads that exist. Runs it on the calling thread when no
/// pool can be built (no threads left to spawn).
pub fn install<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    let _user = User::enter();
    match pool() {
        Some(pool) => pool.install(work),
        None => work(),
    }
}

/// Runs `main` on the calling thread, handing it a scope whose `spawn`
/// starts jobs on this process's pool, and how many threads that pool has;
/// returns once `main` and every job it started are done. Without a pool
/// (no threads left to spawn) `main` gets no scope and 0, and must do the
/// work alone.
pub fn scope<'s, R>(main: impl FnOnce(Option<&rayon::Scope<'s>>, usize) -> R) -> R {
    let _user = User::enter();
    match pool() {
        Some(pool) => pool.in_place_scope(|scope| main(Some(scope), pool.current_num_threads())),
        None => main(None, 0),
    }
}

fn pool() -> Option<&'static ThreadPool> {
    let pid = std::process::id();
    // A panic elsewhere while holding the lock leaves the data intact.
    let mut slot = POOL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match *slot {
        Some((owner, pool)) if owner == pid => Some(pool),
        _ => {
            let pool: &'static ThreadPool = Box::leak(Box::new(
                ThreadPoolBuilder::new()
                    .thread_name(|i| format!("file-stores-{i}"))
                    .build()
                    .ok()?,
            ));
            *slot = Some((pid, pool));
            Some(pool)
        }
    }
}

#[cfg(test)]
mod tests {
    use rayon::prelude::*;

    #[test]
    fn runs_parallel_work_in_its_pool() {
        let sum: u64 = super::install(|| (1..=1000u64).into_par_iter().sum());
        assert_eq!(sum, 500_500);
        assert!(super::install(rayon::current_thread_index).is_some());
    }

    #[test]
    fn scope_runs_jobs_on_the_pool_and_waits_for_them() {
        let ran = std::sync::atomic::AtomicUsize::new(0);
        let threads = super::scope(|scope, threads| {
            let scope = scope.expect("a pool");
            for _ in 0..8 {
                scope.spawn(|_| {
                    assert!(rayon::current_thread_index().is_some());
                    ran.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                });
            }
            threads
        });
        assert!(threads >= 1);
        assert_eq!(ran.load(std::sync::atomic::Ordering::Relaxed), 8);
    }
}
