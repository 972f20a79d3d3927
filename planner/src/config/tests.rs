//! Planted configs in every format: the tree each parses to.

use super::*;

fn dump(t: &Tree) -> String {
    let mut s = String::new();
    for (d, n) in t.walk() {
        s.push_str(&format!(
            "{}{} {:?} = {:?} @{}-{}\n",
            "  ".repeat(d),
            n.key,
            n.args,
            n.value,
            n.line,
            n.last_line
        ));
    }
    s
}

#[test]
fn explore_fixtures() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../assets/eval/settings/fixtures"
    );
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&p).unwrap();
        let t = parse(&text, &name);
        println!("==== {name}: {:?}", t.as_ref().map(|t| t.format));
        if let Some(t) = t {
            println!("{}", dump(&t));
        }
    }
}
