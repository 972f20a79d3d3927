//! The resource a "top process" question or action ranks by (a leaf both the task and
//! the action modules use).

/// Which resource a "top process" question ranks by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProcSort {
    Cpu,
    Memory,
}

impl ProcSort {
    pub fn as_str(self) -> &'static str {
        match self {
            ProcSort::Cpu => "cpu",
            ProcSort::Memory => "memory",
        }
    }
}
