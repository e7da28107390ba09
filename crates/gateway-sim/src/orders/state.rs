//! The state file: the book and the signing key kept on disk, written after every change, read at start.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use alloy_primitives::hex;
use serde::{Deserialize, Serialize};

use super::{Book, STATE_FORMAT};
use crate::signing::QuoteSigner;

/// What a state file restores: the signing key and the book.
pub type Restored = ([u8; 32], Book);

/// The book kept in a file: written after every change, read at start.
#[derive(Debug)]
pub struct StateFile {
    path: PathBuf,
    write: Mutex<u64>,
}

#[derive(Serialize, Deserialize)]
struct Saved {
    format: u32,
    key: String,
    book: Book,
}

/// Why a state file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The file exists but could not be read.
    #[error("cannot read the gateway-sim state file {path}: {source}")]
    Read {
        /// The state file.
        path: PathBuf,
        /// Why reading it failed.
        source: std::io::Error,
    },
    /// The file is not a state file's JSON, has another format version, or its key is not 32 bytes of hex.
    #[error(
        "the gateway-sim state file {path} is not a state file this version can read: {reason}"
    )]
    Unreadable {
        /// The state file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A snapshot could not be written (its directory, the temporary file, or replacing the file).
    #[error("cannot write the gateway-sim state file {path}: {source}")]
    Write {
        /// The state file.
        path: PathBuf,
        /// Why writing it failed.
        source: std::io::Error,
    },
}

impl StateFile {
    /// Opens `path`: gives the saved key and book, or `None` when the file does not exist yet.
    pub fn open(path: &Path) -> Result<(Self, Option<Restored>), StateError> {
        let file = Self {
            path: path.to_owned(),
            write: Mutex::new(0),
        };
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((file, None)),
            Err(source) => {
                return Err(StateError::Read {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        let unreadable = |reason: String| StateError::Unreadable {
            path: path.to_owned(),
            reason,
        };
        let saved: Saved = serde_json::from_slice(&bytes).map_err(|e| unreadable(e.to_string()))?;
        if saved.format != STATE_FORMAT {
            return Err(unreadable(format!(
                "format {} (this version reads {STATE_FORMAT})",
                saved.format
            )));
        }
        let key: [u8; 32] = hex::decode(&saved.key)
            .ok()
            .and_then(|k| k.try_into().ok())
            .ok_or_else(|| unreadable("the key is not 32 bytes of hex".into()))?;
        let mut book = saved.book;
        book.reindex();
        Ok((file, Some((key, book))))
    }

    /// The bytes to write for `book` (taken under the book's lock, so they are consistent).
    pub fn snapshot(signer: &QuoteSigner, book: &Book) -> Vec<u8> {
        #[derive(Serialize)]
        struct SavedRef<'a> {
            format: u32,
            key: String,
            book: &'a Book,
        }
        serde_json::to_vec(&SavedRef {
            format: STATE_FORMAT,
            key: hex::encode(signer.secret()),
            book,
        })
        .expect("the book serializes")
    }

    /// Writes snapshot number `generation` unless a newer one has been written; replaces the file atomically.
    pub fn write(&self, generation: u64, bytes: &[u8]) -> Result<(), StateError> {
        let mut written = self.write.lock().unwrap_or_else(|p| p.into_inner());
        if generation <= *written && *written != 0 {
            return Ok(());
        }
        let failed = |source| StateError::Write {
            path: self.path.clone(),
            source,
        };
        let dir = self
            .path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(failed)?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(failed)?;
        tmp.write_all(bytes).map_err(failed)?;
        tmp.as_file().sync_all().map_err(failed)?;
        tmp.persist(&self.path).map_err(|e| failed(e.error))?;
        *written = generation;
        Ok(())
    }
}
