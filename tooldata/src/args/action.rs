//! The arguments of `run_action`: what the model or planner proposes (an argv, a command
//! line, or a configured action with parameters) and why. Read as leniently as the agent
//! always read them: the first of `action`, `argv`, `command` present decides.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use llmops_policy::ActionRequest;

/// `run_action {argv | command | action + params, reason}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunActionArgs {
    #[serde(flatten)]
    pub call: ActionCall,
    /// Why, in the words the operator is shown (the user's request when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The action proposed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ActionCall {
    /// A configured action by name; each parameter a string or a number.
    Configured {
        action: String,
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        params: BTreeMap<String, Value>,
    },
    /// An argv (possibly compound: `&&` between stages).
    Argv { argv: Vec<String> },
    /// One command line, split by the action policy.
    Command { command: String },
}

impl RunActionArgs {
    /// A proposal of `argv` for `reason`.
    pub fn argv(argv: Vec<String>, reason: impl Into<String>) -> Self {
        RunActionArgs {
            call: ActionCall::Argv { argv },
            reason: Some(reason.into()),
        }
    }

    /// The request in a `run_action` call: `{"argv": [...]}`, `{"command": "..."}` or
    /// `{"action": NAME, "params": {...}}` (also as a string holding that JSON).
    pub fn from_json(args: Value) -> Result<Self, String> {
        let args = match args {
            Value::String(s) => serde_json::from_str(&s).unwrap_or(Value::Null),
            other => other,
        };
        let reason = args["reason"].as_str().map(String::from);
        let call = call_of(&args)?;
        Ok(RunActionArgs { call, reason })
    }

    /// The request the action policy checks.
    pub fn request(&self) -> ActionRequest {
        match &self.call {
            ActionCall::Configured { action, params } => ActionRequest::Configured {
                name: action.clone(),
                params: params
                    .iter()
                    .map(|(k, v)| {
                        let v = match v {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        };
                        (k.clone(), v)
                    })
                    .collect(),
            },
            ActionCall::Argv { argv } => ActionRequest::Argv(argv.clone()),
            ActionCall::Command { command } => ActionRequest::Argv(vec![command.clone()]),
        }
    }

    /// The reason given, when it says anything.
    pub fn reason(&self) -> Option<&str> {
        self.reason.as_deref().filter(|r| !r.trim().is_empty())
    }
}

fn call_of(args: &Value) -> Result<ActionCall, String> {
    if let Some(name) = args["action"].as_str() {
        let mut params = BTreeMap::new();
        for (k, v) in args["params"].as_object().into_iter().flatten() {
            if !matches!(v, Value::String(_) | Value::Number(_)) {
                return Err(format!(
                    "参数 {k} 必须是字符串或数字: {v} / parameter {k} must be a string or a number"
                ));
            }
            params.insert(k.clone(), v.clone());
        }
        return Ok(ActionCall::Configured {
            action: name.to_string(),
            params,
        });
    }
    if let Some(list) = args["argv"].as_array() {
        let argv: Option<Vec<String>> = list.iter().map(|a| a.as_str().map(String::from)).collect();
        return argv
            .filter(|a| !a.is_empty())
            .map(|argv| ActionCall::Argv { argv })
            .ok_or_else(|| {
                "argv 必须是非空的字符串数组 / argv must be a non-empty array of strings".into()
            });
    }
    if let Some(line) = args["command"].as_str() {
        return Ok(ActionCall::Command {
            command: line.to_string(),
        });
    }
    Err("run_action 需要 argv、command 或 action / run_action needs argv, command or action".into())
}
