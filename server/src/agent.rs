//! The agent: ReAct loop, prompt assembly and the offline planner.

pub mod planner;
pub mod run;
