//! Synthetic logs in every shipped format with planted ground truth.
