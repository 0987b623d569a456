//! The tapered evaluation's weights (placeholder until the tuner writes this file).

use std::sync::LazyLock;

use super::params::{self, S};

/// The weights, laid out as `params` describes.
pub static WEIGHTS: LazyLock<Vec<S>> = LazyLock::new(params::start);
