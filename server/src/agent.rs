//! The agent: the ReAct loop of a turn (`run`) over the LLM or the offline planner
//! (`llmops_planner`), and the narrow environment it runs in (`env`).

pub mod env;
pub mod run;

pub use env::{AgentEnv, TurnContext, TurnStore};
