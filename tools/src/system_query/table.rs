//! A system table as rows of typed cells with its schema, the shape the query engine reads.

use llmops_common::query::{FieldInfo, FieldKind, Unit};

/// One cell.
#[derive(Debug, Clone, PartialEq)]
pub enum SysCell {
    Text(String),
    Int(i64),
    Num(f64),
    /// Not known for this row (a process that exited while being read, a socket no
    /// process could be found for).
    Null,
}

/// A table of the system: a name, its columns and its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct SysTable {
    pub name: &'static str,
    pub fields: Vec<FieldInfo>,
    pub rows: Vec<Vec<SysCell>>,
}

/// A column.
pub fn col(name: &str, kind: FieldKind, unit: Unit) -> FieldInfo {
    FieldInfo {
        name: name.to_string(),
        kind,
        unit,
        roles: Vec::new(),
        example: None,
    }
}

impl SysTable {
    /// The index of a column.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }
}
