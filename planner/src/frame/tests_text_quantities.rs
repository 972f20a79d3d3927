//! Figures a log writes only in its text, checked against planted ground truth: numbers
//! written before a unit or a noun (summed, or their largest), values known by their shape
//! (MAC addresses, domain names) counted and ranked, networks written with wild parts, and
//! dotted host names that name no log.

use super::tests_answers::Planted;
use super::tests_counts::number;
use super::tests_fields::stat;

/// A replica copier's log in no shipped format: copies finished with their chunks,
/// objects, bytes and seconds, heartbeats between; the planted totals and the slowest copy.
fn copier_log() -> (String, u64, u64, f64) {
    let (mut text, mut bytes, mut objects, mut slowest) = (String::new(), 0u64, 0u64, 0f64);
    for i in 0..240u64 {
        let at = format!(
            "2031-06-02 03:{:02}:{:02}.{:03}",
            i / 6 % 60,
            i % 6 * 9,
            i * 7 % 1000
        );
        if i % 3 == 0 {
            let (n_obj, n_bytes) = (40 + i * 13 % 500, 9000 + i * 977 % 70000);
            let secs = (i * 37 % 4000) as f64 / 1000.0 + 0.125;
            bytes += n_bytes;
            objects += n_obj;
            slowest = slowest.max(secs);
            text.push_str(&format!(
                "{at} [copier] copy of 'vol-{}' finished: {} chunks, {n_obj} objects, {n_bytes} bytes, {secs:.3} secs ({} bytes/sec)\n",
                i % 9,
                i % 17 + 1,
                (n_bytes as f64 / secs) as u64
            ));
        } else {
            text.push_str(&format!("{at} [copier] heartbeat seq={i} peers=3\n"));
        }
    }
    (text, bytes, objects, slowest)
}

#[test]
fn numbers_written_before_a_unit_or_a_noun_are_summed_or_ranked() {
    let (text, bytes, objects, slowest) = copier_log();
    let p = Planted::new("copier.log", &text);
    for q in [
        "sum the bytes over the finished copies in copier.log",
        "copier.log 里 finished 的 copy 一共多少 bytes",
    ] {
        assert_eq!(stat(&p.answer(q)), bytes as f64, "{q}");
    }
    let q = "copier.log 里 finished 的 copy，objects 合计多少";
    assert_eq!(stat(&p.answer(q)), objects as f64, "{q}");
    let q = "copier.log: secs of the longest copy?";
    let got = stat(&p.answer(q));
    assert!((got - slowest).abs() < 1e-9, "{q}: {got} vs {slowest}");
}

/// A DHCP daemon's log in no shipped format: offers and rejections by MAC address.
fn lease_log() -> (String, Vec<(String, u64)>, usize, u64) {
    let macs: Vec<String> = (0..23u64)
        .map(|i| {
            format!(
                "5c:aa:{:02x}:{:02x}:0{}:7e",
                i * 11 % 256,
                i * 29 % 256,
                i % 10
            )
        })
        .collect();
    let mut rejected = vec![0u64; macs.len()];
    let mut seen = std::collections::BTreeSet::new();
    let (mut text, mut in_net) = (String::new(), 0u64);
    for i in 0..400usize {
        let at = format!("2031-06-02 04:{:02}:{:02}", i / 7 % 60, i % 7 * 8);
        if i % 5 == 0 {
            // One client is refused far more often than any other.
            let m = if i % 10 == 0 {
                4
            } else {
                (i * i + 3) % macs.len()
            };
            rejected[m] += 1;
            seen.insert(m);
            text.push_str(&format!(
                "{at} leased[311]: REJECT from {} (client-id 01:{}): requested 10.8.4.{} is taken\n",
                macs[m],
                macs[m],
                i % 200
            ));
        } else {
            let m = (i * i + 3) % macs.len();
            seen.insert(m);
            let net = if i % 3 == 0 { 3 } else { 2 };
            in_net += u64::from(net == 3);
            text.push_str(&format!(
                "{at} leased[311]: OFFER 10.8.{net}.{} to {} via eth1\n",
                i % 250 + 2,
                macs[m]
            ));
        }
    }
    let mut by: Vec<(String, u64)> = macs.iter().cloned().zip(rejected).collect();
    by.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    (text, by, seen.len(), in_net)
}

#[test]
fn values_known_by_their_shape_are_counted_and_ranked() {
    let (text, by, distinct, in_net) = lease_log();
    assert!(by[0].1 > by[1].1, "the planted top is strict");
    let p = Planted::new("leased.log", &text);
    let top = p.top_group("in leased.log which mac was REJECTed most often");
    assert_eq!((top.key, top.count), (vec![by[0].0.clone()], by[0].1));
    let q = "leased.log 一共出现过几个不同的 mac 地址";
    assert_eq!(number(&p.answer(q)), distinct as u64, "{q}");
    for q in [
        "how many OFFER lines went to 10.8.3.x in leased.log",
        "leased.log 里 10.8.3.* 的 OFFER 有几条",
    ] {
        assert_eq!(number(&p.answer(q)), in_net, "{q}");
    }
}

/// A resolver's query log: domain names asked, one most often; the file's name shares a
/// label with them.
#[test]
fn a_domain_is_ranked_and_a_dotted_name_names_no_log() {
    let names = [
        "shop.corp.example",
        "api.corp.example",
        "cdn.corp.example",
        "mx1.mail.example",
    ];
    let mut text = String::new();
    let mut asked = [0u64; 4];
    for i in 0..300usize {
        let n = [0, 1, 1, 2, 1, 3, 1][i % 7];
        asked[n] += 1;
        text.push_str(&format!(
            "2031-06-02 05:{:02}:{:02}.250 resolver: client 10.1.{}.{}#4411 asked {} type A\n",
            i / 6 % 60,
            i % 6 * 9,
            i % 4,
            i % 200 + 2,
            names[n]
        ));
    }
    let p = Planted::new("corp-resolver.log", &text);
    let top = p.top_group("corp-resolver.log 里哪个域名被问得最多");
    assert_eq!((top.key, top.count), (vec![names[1].to_string()], asked[1]));
    let q = "how many times does cdn.corp.example show up in corp-resolver.log";
    assert_eq!(number(&p.answer(q)), asked[2], "{q}");
}

/// A Go server's standard log, with no field for the address it writes in its text: the
/// client with the most handshake errors, its port left out.
#[test]
fn an_address_written_in_the_text_is_ranked_without_its_port() {
    let mut text = String::new();
    let mut by = std::collections::BTreeMap::<String, u64>::new();
    for i in 0..260u32 {
        let at = format!("2031/06/02 06:{:02}:{:02}", i / 6 % 60, i % 6 * 9);
        if i % 2 == 0 {
            let ip = format!(
                "10.4.{}.{}",
                i % 3,
                [7, 7, 9, 21, 7, 30][(i / 2 % 6) as usize]
            );
            *by.entry(ip.clone()).or_default() += 1;
            text.push_str(&format!(
                "{at} http: TLS handshake error from {ip}:{}: EOF\n",
                30000 + i * 7
            ));
        } else {
            text.push_str(&format!(
                "{at} served /api/v1/orders/{} in {}ms\n",
                1000 + i,
                i % 90
            ));
        }
    }
    let top_ip = strict_top(by);
    let p = Planted::new("gateway.log", &text);
    for q in [
        "which client ip had the most TLS handshake errors in gateway.log",
        "gateway.log 里 TLS handshake error 最多的 IP 是哪个",
    ] {
        let top = p.top_group(q);
        assert_eq!(
            (top.key, top.count),
            (vec![top_ip.0.clone()], top_ip.1),
            "{q}"
        );
    }
}

/// A field the log's head does not show (the sample is its first 64 KiB) but its later
/// events write (a JSON log's `took`, in ms, a key the engine looks for in every event): its
/// figure stands, not a number written before the unit in other events' text.
#[test]
fn a_field_written_past_the_head_is_measured_not_a_number_in_the_text() {
    let mut text = String::new();
    let mut i = 0u32;
    while text.len() < 80 * 1024 {
        text.push_str(&format!(
            "{{\"ts\":\"2031-06-02T07:{:02}:{:02}Z\",\"level\":\"info\",\"msg\":\"probe ok, next check in {} secs\"}}\n",
            i / 60 % 60,
            i % 60,
            30 + i % 7
        ));
        i += 1;
    }
    let mut longest = 0u64;
    for j in 0..40u64 {
        let ms = 100 + j * 37 % 900;
        longest = longest.max(ms);
        text.push_str(&format!(
            "{{\"ts\":\"2031-06-02T08:{:02}:{:02}Z\",\"level\":\"info\",\"msg\":\"batch {j} finished\",\"took\":{ms}}}\n",
            j / 60,
            j % 60
        ));
    }
    let p = Planted::new("probe.json", &text);
    let q = "how long did the slowest batch take in probe.json";
    // In the field's own unit (ms), as `took` writes it.
    let got = stat(&p.answer(q));
    assert!(
        (got - longest as f64).abs() < 1e-9,
        "{q}: {got} vs {longest} ms"
    );
}

/// A Go service's key=value log whose `peer` writes the address with the connection's
/// port: the address asked of it is ranked and counted without the port (per host, not
/// per connection); its own name asked without an address word stays as written.
#[test]
fn an_address_asked_of_a_field_with_ports_leaves_the_port_out() {
    let mut text = String::new();
    let mut by = std::collections::BTreeMap::<String, u64>::new();
    for i in 0..300u32 {
        let at = format!("2031-06-02T07:{:02}:{:02}.{:03}Z", i / 6 % 60, i % 6 * 9, i);
        let ip = format!(
            "172.20.{}.{}",
            i % 2,
            [5, 5, 8, 13, 5, 40, 8][(i % 7) as usize]
        );
        if i % 3 == 0 {
            *by.entry(ip.clone()).or_default() += 1;
            text.push_str(&format!(
                "{at} [ERROR] rpc.server: stream reset: peer={ip}:{} code=CANCEL\n",
                40000 + i * 13
            ));
        } else {
            text.push_str(&format!(
                "{at} [INFO]  rpc.server: call done: peer={ip}:{} took={}ms\n",
                40000 + i * 13,
                i % 70
            ));
        }
    }
    let top_ip = strict_top(by);
    let p = Planted::new("rpc.log", &text);
    for q in [
        "which client ip (peer) had the most stream resets in rpc.log",
        "rpc.log 里 stream reset 最多的客户端 IP（peer）是哪个",
    ] {
        let top = p.top_group(q);
        assert_eq!(
            (top.key, top.count),
            (vec![top_ip.0.clone()], top_ip.1),
            "{q}"
        );
    }
    let q = "rpc.log: which peer had the most stream resets";
    assert!(
        p.top_group(q).key[0].contains(':'),
        "{q}: the field as written"
    );
    let hosts: std::collections::BTreeSet<String> = text
        .lines()
        .filter_map(|l| l.split("peer=").nth(1))
        .filter_map(|r| r.split(':').next())
        .map(str::to_string)
        .collect();
    let q = "how many distinct client ips (peer) in rpc.log";
    assert_eq!(number(&p.answer(q)), hosts.len() as u64, "{q}");
}

/// The planted value with the most events, checked to be the only one with that many.
fn strict_top(by: std::collections::BTreeMap<String, u64>) -> (String, u64) {
    let mut ranked: Vec<(String, u64)> = by.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    assert!(ranked[0].1 > ranked[1].1, "the planted top is strict");
    ranked.swap_remove(0)
}
