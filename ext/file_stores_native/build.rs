//! Link flags for a Ruby extension: it leaves Ruby's own functions to be
//! found when Ruby loads it. Linux's linker allows that in a shared library;
//! macOS's must be told, in the rb_sys build and the plain one alike (rb-sys's
//! build script cannot pass link flags on to this crate).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("macos") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-undefined,dynamic_lookup");
    }
}
