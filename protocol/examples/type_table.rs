//! Prints the NPLT type table that `docs/protocol.md` must contain.
fn main() {
    print!("{}", protocol::type_table_markdown());
}
