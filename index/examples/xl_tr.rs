// temporary: print translations of the tuning questions (not committed)
fn main() {
    let text = std::fs::read_to_string("tests/fixtures/xling/zh_en.tsv").unwrap();
    for l in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((p, q)) = l.split_once('\t') else { continue };
        let t = llmops_index::analyzers::translate::translate(q);
        let terms: Vec<String> = t.terms.iter().zip(&t.weights).map(|(a, w)| format!("{a}:{w:.2}")).collect();
        println!("{p}\t{q}\t{}\t[{}]", t.text, terms.join(" "));
    }
}
