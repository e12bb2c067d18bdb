//! Running native work without Ruby's global VM lock (GVL).
//!
//! [`nogvl`] is the one way the binding calls into the core. It runs the work
//! with the GVL released, so other Ruby threads run meanwhile, and passes the
//! work a [`Cancel`] flag that Ruby's unblocking function sets when the
//! thread is interrupted (Ctrl-C, `Thread#kill`, `Thread#raise`, `Timeout`).
//! When the work stops because it was cancelled, pending interrupts are run
//! through `rb_thread_check_ints` under `protect`, so a raised interrupt
//! unwinds the Rust frames normally instead of long-jumping over them. If no
//! interrupt turns out to be pending (a signal trap that only ran a handler),
//! the work is started again.
//!
//! The unblocking function only stores an atomic flag, which is safe in a
//! signal handler, and says so with `RB_NOGVL_UBF_ASYNC_SAFE`. Without that
//! flag Ruby starts a helper thread for every call made by a lone main
//! thread; under `GC.stress` creating it raised an interrupt each time, the
//! call failed before it started, and `NativeDir#write` retried for ever.
//! Should interrupts still keep the work from starting, it runs with the
//! GVL held after [`MAX_NOT_STARTED`] tries, so a call always finishes.
//!
//! A panic in the work is caught here and becomes a rescuable
//! `RubyLLM::FileStore::InternalError`, never `fatal` and never an unwind
//! into C.

use std::any::Any;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use file_stores_base::{Cancel, Result as CoreResult};
use magnus::{Error, Ruby};

use crate::errors::{internal_error, CoreError};

struct Call<'a, T> {
    work: &'a (dyn Fn(&Cancel) -> CoreResult<T> + Sync),
    cancel: Cancel,
    outcome: Option<std::thread::Result<CoreResult<T>>>,
}

unsafe extern "C" fn run<T>(data: *mut c_void) -> *mut c_void {
    // SAFETY: `data` is the `Call<T>` that `nogvl` passed to `rb_nogvl`,
    // which lives on `nogvl`'s stack until `rb_nogvl` returns.
    let call = unsafe { &mut *(data as *mut Call<'_, T>) };
    let work = call.work;
    let cancel = &call.cancel;
    call.outcome = Some(catch_unwind(AssertUnwindSafe(|| work(cancel))));
    std::ptr::null_mut()
}

unsafe extern "C" fn unblock(data: *mut c_void) {
    // SAFETY: `data` points to the `Cancel` inside the live `Call`; setting
    // an atomic flag is safe from any thread, and touches no Ruby state.
    let cancel = unsafe { &*(data as *const Cancel) };
    cancel.cancel();
}

/// How many times in a row an interrupt may keep the work from starting
/// before it runs with the GVL held.
const MAX_NOT_STARTED: u32 = 16;

/// Runs `work` without the GVL; see the module docs.
pub fn nogvl<T>(ruby: &Ruby, work: impl Fn(&Cancel) -> CoreResult<T> + Sync) -> Result<T, Error> {
    let mut not_started = 0;
    loop {
        if not_started >= MAX_NOT_STARTED {
            return with_gvl_held(ruby, &work);
        }
        let mut call = Call {
            work: &work,
            cancel: Cancel::new(),
            outcome: None,
        };
        let cancel_ptr = &call.cancel as *const Cancel as *mut c_void;
        let call_ptr = &mut call as *mut Call<'_, T> as *mut c_void;
        // SAFETY: `run::<T>` matches the `Call<T>` behind `call_ptr`, and
        // `unblock` the `Cancel` behind `cancel_ptr`; both outlive this call,
        // since `rb_nogvl` returns only after `run` has returned (or without
        // calling it). RB_NOGVL_INTR_FAIL makes `rb_nogvl` return instead of
        // running interrupts itself, which could long-jump over our frames;
        // RB_NOGVL_UBF_ASYNC_SAFE is true of `unblock` (one atomic store).
        unsafe {
            rb_sys::rb_nogvl(
                Some(run::<T>),
                call_ptr,
                Some(unblock),
                cancel_ptr,
                (rb_sys::RB_NOGVL_INTR_FAIL | rb_sys::RB_NOGVL_UBF_ASYNC_SAFE) as i32,
            );
        }
        match call.outcome.take() {
            Some(Ok(Err(e))) if e.is_cancelled() => not_started = 0,
            Some(Ok(result)) => return result.map_err(|e| Error::from(CoreError(e))),
            Some(Err(panic)) => return Err(internal_error(ruby, &panic_message(&panic))),
            None => not_started += 1, // interrupted before it started
        }
        // Run the pending interrupts; an exception among them ends the call.
        ruby.thread_check_ints()?;
    }
}

/// Runs `work` to the end with the GVL held (nothing can cancel it).
fn with_gvl_held<T>(
    ruby: &Ruby,
    work: &(dyn Fn(&Cancel) -> CoreResult<T> + Sync),
) -> Result<T, Error> {
    let cancel = Cancel::new();
    match catch_unwind(AssertUnwindSafe(|| work(&cancel))) {
        Ok(result) => result.map_err(|e| Error::from(CoreError(e))),
        Err(panic) => Err(internal_error(ruby, &panic_message(&panic))),
    }
}

/// Runs `work` with the GVL held, turning a panic into a Ruby exception.
pub fn guarded<T>(ruby: &Ruby, work: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(result) => result,
        Err(panic) => Err(internal_error(ruby, &panic_message(&panic))),
    }
}

fn panic_message(panic: &Box<dyn Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with no message".to_owned()
    }
}
