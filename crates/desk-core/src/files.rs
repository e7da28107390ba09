//! Files outside the app's own folders: what the app writes where the person chose (a PSBT, a CSV export), the
//! support bundle it reads from where the person chose, and which of its own files it may show in the file manager.
//! Reading and writing happen off the async runtime; each error says where and what to do.

use std::path::{Path, PathBuf};

use crate::error::{DeskError, ErrorKind};

/// Largest bundle file the app reads (a bundle is a few hundred kilobytes at most).
pub const MAX_BUNDLE_BYTES: u64 = 16 * 1024 * 1024;

/// Writes `bytes` (a `what`, e.g. `PSBT`) to `path` off the async runtime: the path as shown to the person.
pub async fn write_file(path: PathBuf, bytes: Vec<u8>, what: &str) -> Result<String, DeskError> {
    let shown = path.display().to_string();
    tokio::task::spawn_blocking(move || std::fs::write(&path, &bytes))
        .await
        .map_err(|e| e.to_string())
        .and_then(|r| r.map_err(|e| e.to_string()))
        .map_err(|e| {
            DeskError::new(
                ErrorKind::InvalidInput,
                format!("The {what} could not be written to {shown} ({e}). Choose another folder and try again."),
            )
        })?;
    Ok(shown)
}

/// Reads a support bundle's text from `path` off the async runtime; a file larger than [`MAX_BUNDLE_BYTES`] is
/// refused unread.
pub async fn read_bundle_file(path: PathBuf) -> Result<String, DeskError> {
    let shown = path.display().to_string();
    tokio::task::spawn_blocking(move || -> Result<String, String> {
        let size = std::fs::metadata(&path).map_err(|e| e.to_string())?.len();
        if size > MAX_BUNDLE_BYTES {
            return Err(format!("it is {size} bytes, more than a bundle ever holds"));
        }
        std::fs::read_to_string(&path).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())
    .and_then(|r| r)
    .map_err(|e| {
        DeskError::new(
            ErrorKind::InvalidInput,
            format!("{shown} could not be read as a support bundle ({e}). Ask for the bundle file again."),
        )
    })
}

/// `path`, resolved, when it is a file the app wrote into its own data folder `data_dir` (a support bundle): only
/// such a file may be shown in the file manager.
pub fn own_file(path: &str, data_dir: &Path) -> Result<PathBuf, DeskError> {
    let refused = || {
        DeskError::new(
            ErrorKind::InvalidInput,
            "Only files the app wrote into its own data folder can be shown.",
        )
    };
    let wanted = std::fs::canonicalize(path).map_err(|_| refused())?;
    let root = std::fs::canonicalize(data_dir).map_err(|_| refused())?;
    if !wanted.starts_with(&root) {
        return Err(refused());
    }
    Ok(wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_written_file_holds_the_bytes_and_its_path_is_shown() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("order.psbt");
        let shown = write_file(path.clone(), b"psbt\xff".to_vec(), "PSBT")
            .await
            .unwrap();
        assert_eq!(shown, path.display().to_string());
        assert_eq!(std::fs::read(&path).unwrap(), b"psbt\xff");
    }

    #[tokio::test]
    async fn a_file_that_cannot_be_written_says_where_and_what() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("rows.csv");
        let error = write_file(path.clone(), b"a,b".to_vec(), "CSV file")
            .await
            .unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidInput);
        let start = format!("The CSV file could not be written to {} (", path.display());
        assert!(error.message.starts_with(&start), "{}", error.message);
        assert!(
            error
                .message
                .ends_with("). Choose another folder and try again."),
            "{}",
            error.message
        );
    }

    #[tokio::test]
    async fn a_bundle_is_read_whole_and_a_huge_file_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bundle.json");
        std::fs::write(&path, "{\"format\":1}").unwrap();
        assert_eq!(read_bundle_file(path).await.unwrap(), "{\"format\":1}");
        let huge = dir.path().join("huge.json");
        let file = std::fs::File::create(&huge).unwrap();
        file.set_len(MAX_BUNDLE_BYTES + 1).unwrap();
        let error = read_bundle_file(huge).await.unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidInput);
        assert!(
            error.message.contains("more than a bundle ever holds"),
            "{}",
            error.message
        );
    }

    #[test]
    fn only_the_app_s_own_files_may_be_shown() {
        let data = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        let own = data.path().join("bundle.json");
        std::fs::write(&own, "{}").unwrap();
        let elsewhere = other.path().join("secret.txt");
        std::fs::write(&elsewhere, "x").unwrap();
        assert_eq!(
            own_file(own.to_str().unwrap(), data.path()).unwrap(),
            std::fs::canonicalize(&own).unwrap()
        );
        for path in [
            elsewhere.display().to_string(),
            data.path().join("..").join("nope").display().to_string(),
        ] {
            let error = own_file(&path, data.path()).unwrap_err();
            assert_eq!(
                error.message,
                "Only files the app wrote into its own data folder can be shown."
            );
        }
    }
}
