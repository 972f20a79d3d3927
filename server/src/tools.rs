//! Agent tools: the `Tool` trait and its implementations.
