//! `RubyLLM::FileStores::Native::RunTree`: a `run_code` folder before a run
//! (a snapshot held in Rust), and the sweep after it (see
//! `file_stores_store::run_tree`). Internal: `CodeExecution::Snapshot` wraps
//! it and words what it finds for the model.

use std::path::PathBuf;

use file_stores_store::run_tree::{self, Budget, Kind, Removal, Snapshot};
use magnus::{function, method, prelude::*, Error, RArray, RModule, Ruby};

use crate::nogvl::{guarded, nogvl};

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

    /// `[left, gone, removed, removed_count, too_deep, stripped,
    /// stripped_count]`; `left` rows are `[path, created, kind, size,
    /// allocated]`, `removed` rows `[shown path, reason]`.
    fn sweep(
        ruby: &Ruby,
        rb_self: &Self,
        root: String,
        skip: Vec<String>,
        entries: u64,
        bytes: u64,
    ) -> Result<RArray, Error> {
        let root = PathBuf::from(root);
        let budget = Budget { entries, bytes };
        let swept = nogvl(ruby, |cancel| {
            run_tree::sweep(&root, &rb_self.snapshot, &skip, budget, cancel)
        })?;
        guarded(ruby, || {
            let left = ruby.ary_new_capa(swept.left.len());
            for entry in &swept.left {
                let kind = match entry.kind {
                    Kind::File => "file",
                    Kind::Folder => "folder",
                    Kind::Link => "link",
                    Kind::Other => "other",
                };
                left.push((
                    entry.path.as_str(),
                    entry.created,
                    ruby.to_symbol(kind),
                    entry.size,
                    entry.allocated,
                ))?;
            }
            let removed = ruby.ary_new_capa(swept.removed.len());
            for (path, why) in &swept.removed {
                let why = match why {
                    Removal::Budget => "budget",
                    Removal::Name => "name",
                    Removal::TooDeep => "too_deep",
                };
                removed.push((path.as_str(), ruby.to_symbol(why)))?;
            }
            let out = ruby.ary_new_capa(7);
            out.push(left)?;
            out.push(swept.gone.clone())?;
            out.push(removed)?;
            out.push(swept.removed_count)?;
            out.push(swept.too_deep.clone())?;
            out.push(swept.stripped.clone())?;
            out.push(swept.stripped_count)?;
            Ok(out)
        })
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

pub fn init(ruby: &Ruby, native: RModule) -> Result<(), Error> {
    let class = native.define_class("RunTree", ruby.class_object())?;
    class.undef_default_alloc_func();
    class.define_singleton_method("snapshot", function!(RunTree::snapshot, 1))?;
    class.define_singleton_method("remove", function!(RunTree::remove, 2))?;
    class.define_singleton_method("remove_empty", function!(RunTree::remove_empty, 2))?;
    class.define_method("size", method!(RunTree::size, 0))?;
    class.define_method("too_deep", method!(RunTree::too_deep, 0))?;
    class.define_method("sweep", method!(RunTree::sweep, 4))?;
    Ok(())
}
