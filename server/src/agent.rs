//! The agent: the ReAct loop over the LLM or the offline planner (`llmops_planner`).

pub mod run;
