//! The dataset convention's file names (spec §11): what a name such as
//! `t10k-labels-idx1-ubyte` says of the file's role and split, and the role
//! a file plays in a dataset. Used by the dataset rules, and by the front
//! ends through `idx::__private`.

/// What a file is in a dataset, by name.
///
/// ```
/// use idx::__private::{dataset_name, Role};
///
/// assert_eq!(dataset_name("t10k-labels-idx1-ubyte").map(|n| n.role), Some(Role::Labels));
/// assert_eq!(dataset_name("mnist/train-images.idx3-ubyte.gz").map(|n| n.role), Some(Role::Images));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `...-images-idx3-ubyte`.
    Images,
    /// `...-labels-idx1-ubyte`.
    Labels,
}

/// Which split a prefix names.
///
/// ```
/// use idx::__private::{dataset_name, Split};
///
/// let split = |name| dataset_name(name).and_then(|n| n.split);
/// assert_eq!(split("t10k-images-idx3-ubyte"), Some(Split::Test));
/// assert_eq!(split("emnist-letters-train-labels-idx1-ubyte"), Some(Split::Train));
/// assert_eq!(split("my-images-idx3-ubyte"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// `train`.
    Train,
    /// `test` or `t10k`.
    Test,
}

/// A file name read by the dataset convention.
///
/// ```
/// let n = idx::__private::dataset_name("data/emnist_balanced.train-images-idx3-ubyte.GZ").unwrap();
/// assert_eq!(n.prefix, "emnist-balanced-train"); // separators compare equal
/// assert_eq!(n.dataset, "emnist-balanced-");
/// assert!(n.gzip);
/// assert!(idx::__private::dataset_name("train.idx").is_none()); // not the convention
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatasetName {
    /// Images or labels.
    pub role: Role,
    /// Everything before the role word, lowercased (`emnist-balanced-train`).
    pub prefix: String,
    /// The split the prefix ends with, if any.
    pub split: Option<Split>,
    /// The prefix without its split word (the dataset: `emnist-balanced-`).
    pub dataset: String,
    /// The name ends in `.gz` (any case).
    pub gzip: bool,
}

/// Reads a file name (the last path component of `path`) by the convention:
/// `<prefix>[-._](images|labels)[-._]idx<digits>[-._]<word>` with an optional
/// `.gz`. `None` for any other name.
pub fn dataset_name(path: &str) -> Option<DatasetName> {
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let lower = base.to_ascii_lowercase();
    let (stem, gzip) = match lower.strip_suffix(".gz") {
        Some(s) => (s, true),
        None => (lower.as_str(), false),
    };
    let parts: Vec<&str> = stem.split(['-', '.', '_']).collect();
    let n = parts.len();
    if n < 3 {
        return None;
    }
    let (role, rank, word) = (parts[n - 3], parts[n - 2], parts[n - 1]);
    let role = match role {
        "images" => Role::Images,
        "labels" => Role::Labels,
        _ => return None,
    };
    let digits = rank.strip_prefix("idx")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || word.is_empty() {
        return None;
    }
    // the prefix: the name up to the separator before the role word
    let role_len = parts[n - 3].len() + parts[n - 2].len() + parts[n - 1].len() + 2;
    // separators compare equal: `emnist_balanced.train` is `emnist-balanced-train`
    let prefix = stem[..stem.len() - role_len]
        .trim_end_matches(['-', '.', '_'])
        .replace(['.', '_'], "-");
    let prefix = prefix.as_str();
    let last = prefix.rsplit('-').next().unwrap_or(prefix);
    let split = match last {
        "train" => Some(Split::Train),
        "test" | "t10k" => Some(Split::Test),
        _ => None,
    };
    let dataset = match split {
        Some(_) => prefix[..prefix.len() - last.len()].to_string(),
        None => prefix.to_string(),
    };
    Some(DatasetName {
        role,
        prefix: prefix.to_string(),
        split,
        dataset,
        gzip,
    })
}

/// The role file `i` plays: from an explicit pair (`pairs`, of images and
/// labels files by index), else from its name (`path`).
pub fn role(path: &str, pairs: &[(usize, usize)], i: usize) -> Option<Role> {
    for &(im, lb) in pairs {
        if im == i {
            return Some(Role::Images);
        }
        if lb == i {
            return Some(Role::Labels);
        }
    }
    dataset_name(path).map(|n| n.role)
}
