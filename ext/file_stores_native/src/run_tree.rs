//! `RubyLLM::FileStores::Native::RunTree`: a `run_code` folder before a run
//! (a snapshot held in Rust), and the sweep after it (see
//! `file_stores_store::run_tree`). Internal: `CodeExecution::Snapshot` wraps
//! it and words what it finds for the model.

use std::path::PathBuf;

use file_stores_store::run_tree::{self, Budget, Kind, Removal, Snapshot, Sweep};
use magnus::{
    function, method, prelude::*, Error, RArray, RHash, RModule, Ruby, Symbol, TryConvert,
};

use crate::fields;

use crate::nogvl::nogvl;

/// The keys of `sweep`'s limits.
const SWEEP_FIELDS: [&str; 3] = ["skip", "entries", "bytes"];

#[magnus::wrap(class = "RubyLLM::FileStores::Native::RunTree", free_immediately, size)]
pub struct RunTree {
    snapshot: Snapshot,
}

impl RunTree {
    fn snapshot(ruby: &Ruby, root: String) -> Result<Self, Error> {
        let root = PathBuf::from(root);
        let snapshot = nogvl(ruby, |cancel| Snapshot::take(&root, cancel))?;
        Ok(RunTree { snapshot })
    }

    fn size(&self) -> usize {
        self.snapshot.len()
    }

    fn too_deep(&self) -> Vec<String> {
        self.snapshot.too_deep.clone()
    }

    /// Walks the folder again (see `run_tree::sweep`): a [`Swept`].
    /// `limits` holds, by name, `skip` (the mount points), and the budget:
    /// `entries` and `bytes`.
    fn sweep(ruby: &Ruby, rb_self: &Self, root: String, limits: RHash) -> Result<Swept, Error> {
        let mut skip: Vec<String> = Vec::new();
        let mut budget = Budget {
            entries: 0,
            bytes: 0,
        };
        fields::read(ruby, limits, "sweep", &SWEEP_FIELDS, |name, value| {
            match name {
                "skip" => skip = TryConvert::try_convert(value)?,
                "entries" => budget.entries = TryConvert::try_convert(value)?,
                "bytes" => budget.bytes = TryConvert::try_convert(value)?,
                _ => {} // fields::read passes only SWEEP_FIELDS
            }
            Ok(())
        })?;
        let root = PathBuf::from(root);
        let swept = nogvl(ruby, |cancel| {
            run_tree::sweep(&root, &rb_self.snapshot, &skip, budget, cancel)
        })?;
        Ok(Swept(swept))
    }

    fn remove(ruby: &Ruby, root: String, path: String) -> Result<bool, Error> {
        let root = PathBuf::from(root);
        nogvl(ruby, |cancel| run_tree::remove(&root, &path, cancel))
    }

    fn remove_empty(ruby: &Ruby, root: String, path: String) -> Result<bool, Error> {
        let root = PathBuf::from(root);
        nogvl(ruby, |_| run_tree::remove_empty(&root, &path))
    }
}

/// `RunTree::Swept`: what a sweep found, by name.
#[magnus::wrap(
    class = "RubyLLM::FileStores::Native::RunTree::Swept",
    free_immediately,
    size
)]
pub struct Swept(Sweep);

impl Swept {
    /// What is left that the run made or changed, each a [`Left`].
    fn left(ruby: &Ruby, rb_self: &Self) -> Result<RArray, Error> {
        let rows = ruby.ary_new_capa(rb_self.0.left.len());
        for entry in &rb_self.0.left {
            rows.push(Left(entry.clone()))?;
        }
        Ok(rows)
    }

    /// Paths there before the run and gone after it.
    fn gone(&self) -> Vec<String> {
        self.0.gone.clone()
    }

    /// What the sweep removed (at most `run_tree`'s cap), each a [`Removed`].
    fn removed(ruby: &Ruby, rb_self: &Self) -> Result<RArray, Error> {
        let rows = ruby.ary_new_capa(rb_self.0.removed.len());
        for entry in &rb_self.0.removed {
            rows.push(Removed(entry.clone()))?;
        }
        Ok(rows)
    }

    /// How many entries the sweep removed in all.
    fn removed_count(&self) -> u64 {
        self.0.removed_count
    }

    /// Folders at the depth limit, there before the run, not walked.
    fn too_deep(&self) -> Vec<String> {
        self.0.too_deep.clone()
    }

    /// What lost setuid, setgid or world-write bits (at most the cap).
    fn stripped(&self) -> Vec<String> {
        self.0.stripped.clone()
    }

    /// How many entries lost bits in all.
    fn stripped_count(&self) -> u64 {
        self.0.stripped_count
    }

    /// What could not be opened or looked at, not walked (at most the cap).
    fn unreadable(&self) -> Vec<String> {
        self.0.unreadable.clone()
    }
}

/// `RunTree::Left`: one entry the run made or changed.
#[magnus::wrap(
    class = "RubyLLM::FileStores::Native::RunTree::Left",
    free_immediately,
    size
)]
pub struct Left(run_tree::Left);

impl Left {
    fn path(&self) -> String {
        self.0.path.clone()
    }

    /// Whether the run made it (else it changed it).
    fn created(&self) -> bool {
        self.0.created
    }

    /// :file, :folder, :link or :other.
    fn kind(ruby: &Ruby, rb_self: &Self) -> Symbol {
        ruby.to_symbol(match rb_self.0.kind {
            Kind::File => "file",
            Kind::Folder => "folder",
            Kind::Link => "link",
            Kind::Other => "other",
        })
    }

    /// Its apparent size in bytes.
    fn size(&self) -> u64 {
        self.0.size
    }

    /// The bytes it takes on disk.
    fn allocated(&self) -> u64 {
        self.0.allocated
    }
}

/// `RunTree::Removed`: one entry the sweep removed.
#[magnus::wrap(
    class = "RubyLLM::FileStores::Native::RunTree::Removed",
    free_immediately,
    size
)]
pub struct Removed((String, Removal));

impl Removed {
    /// The path as shown to the model.
    fn path(&self) -> String {
        self.0 .0.clone()
    }

    /// :budget, :name, :too_deep or :special.
    fn reason(ruby: &Ruby, rb_self: &Self) -> Symbol {
        ruby.to_symbol(match rb_self.0 .1 {
            Removal::Budget => "budget",
            Removal::Name => "name",
            Removal::TooDeep => "too_deep",
            Removal::Special => "special",
        })
    }
}

pub fn init(ruby: &Ruby, native: RModule) -> Result<(), Error> {
    let class = native.define_class("RunTree", ruby.class_object())?;
    class.undef_default_alloc_func();
    class.define_singleton_method("snapshot", function!(RunTree::snapshot, 1))?;
    class.define_singleton_method("remove", function!(RunTree::remove, 2))?;
    class.define_singleton_method("remove_empty", function!(RunTree::remove_empty, 2))?;
    class.define_method("size", method!(RunTree::size, 0))?;
    class.define_method("too_deep", method!(RunTree::too_deep, 0))?;
    class.define_method("sweep", method!(RunTree::sweep, 2))?;

    let swept = class.define_class("Swept", ruby.class_object())?;
    swept.undef_default_alloc_func();
    swept.define_method("left", method!(Swept::left, 0))?;
    swept.define_method("gone", method!(Swept::gone, 0))?;
    swept.define_method("removed", method!(Swept::removed, 0))?;
    swept.define_method("removed_count", method!(Swept::removed_count, 0))?;
    swept.define_method("too_deep", method!(Swept::too_deep, 0))?;
    swept.define_method("stripped", method!(Swept::stripped, 0))?;
    swept.define_method("stripped_count", method!(Swept::stripped_count, 0))?;
    swept.define_method("unreadable", method!(Swept::unreadable, 0))?;

    let left = class.define_class("Left", ruby.class_object())?;
    left.undef_default_alloc_func();
    left.define_method("path", method!(Left::path, 0))?;
    left.define_method("created?", method!(Left::created, 0))?;
    left.define_method("kind", method!(Left::kind, 0))?;
    left.define_method("size", method!(Left::size, 0))?;
    left.define_method("allocated", method!(Left::allocated, 0))?;

    let removed = class.define_class("Removed", ruby.class_object())?;
    removed.undef_default_alloc_func();
    removed.define_method("path", method!(Removed::path, 0))?;
    removed.define_method("reason", method!(Removed::reason, 0))?;
    Ok(())
}
