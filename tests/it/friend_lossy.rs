//! A game across a lossy network: host and guest each in a network namespace of their own,
//! joined to this one by a veth pair; nftables drops 5% of the packets coming into each
//! namespace at random, and a relay in between holds every byte back 150 ms ± 50 each way (the
//! delay `tc netem` would add, on kernels that have it; loss is the kernel's, so TCP really
//! retransmits). Needs root, `ip` and `nft`: a measurement, run by hand with
//! `cargo test --release --test it friend_lossy -- --ignored --nocapture`.

#![allow(
    clippy::unwrap_used,
    reason = "a test's helpers fail loudly, where the failure is"
)]

use std::process::Command;
use std::time::{Duration, Instant};

use crate::friend::{charged, invitation, kept, sees, type_line};
use crate::tui_pty::{STTY_AFTER, start, temp_home};

/// Runs `ip`/`nft` with `args`; panics with its error when it fails.
fn run(program: &str, args: &[&str]) {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!("{program} could not run ({e}): this measurement needs iproute2 and nftables")
        });
    assert!(
        out.status.success(),
        "{program} {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Two namespaces, `a` (10.77.1.2, reached from here at 10.77.1.1) and `b` (10.77.2.2, from
/// here 10.77.2.1), each dropping `loss` % of what comes in; removed on drop.
struct Lab {
    names: [String; 2],
}

impl Lab {
    fn new(loss: u32) -> Lab {
        let id = std::process::id() % 10_000;
        let names = [format!("kfa{id}"), format!("kfb{id}")];
        for (i, ns) in names.iter().enumerate() {
            let net = i + 1;
            let (outer, inner) = (format!("{ns}o"), format!("{ns}i"));
            run("ip", &["netns", "add", ns]);
            run(
                "ip",
                &[
                    "link", "add", &outer, "type", "veth", "peer", "name", &inner,
                ],
            );
            run("ip", &["link", "set", &inner, "netns", ns]);
            run(
                "ip",
                &["addr", "add", &format!("10.77.{net}.1/24"), "dev", &outer],
            );
            run("ip", &["link", "set", &outer, "up"]);
            let exec = |args: &[&str]| {
                let mut all = vec!["netns", "exec", ns.as_str()];
                all.extend_from_slice(args);
                run("ip", &all);
            };
            exec(&[
                "ip",
                "addr",
                "add",
                &format!("10.77.{net}.2/24"),
                "dev",
                &inner,
            ]);
            exec(&["ip", "link", "set", &inner, "up"]);
            exec(&["ip", "link", "set", "lo", "up"]);
            exec(&[
                "ip",
                "route",
                "add",
                "default",
                "via",
                &format!("10.77.{net}.1"),
            ]);
            exec(&["nft", "add", "table", "inet", "loss"]);
            exec(&[
                "nft",
                "add chain inet loss input { type filter hook input priority 0 ; }",
            ]);
            exec(&[
                "nft",
                &format!("add rule inet loss input numgen random mod 100 < {loss} counter drop"),
            ]);
        }
        Lab { names }
    }

    /// The packets dropped so far, and all that came in, over both namespaces.
    fn dropped(&self) -> (u64, u64) {
        let mut counts = (0, 0);
        for ns in &self.names {
            let read = |args: &[&str]| -> u64 {
                let mut all = vec!["netns", "exec", ns.as_str()];
                all.extend_from_slice(args);
                let out = Command::new("ip").args(&all).output().unwrap();
                let text = String::from_utf8_lossy(&out.stdout).into_owned();
                // nft's "counter packets N bytes M"; /proc's "Ip: ... InReceives ...".
                text.split_whitespace()
                    .skip_while(|w| *w != "packets")
                    .nth(1)
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0)
            };
            counts.0 += read(&["nft", "list", "table", "inet", "loss"]);
            let snmp = {
                let out = Command::new("ip")
                    .args(["netns", "exec", ns, "cat", "/proc/net/snmp"])
                    .output()
                    .unwrap();
                String::from_utf8_lossy(&out.stdout).into_owned()
            };
            let ip: Vec<&str> = snmp.lines().filter(|l| l.starts_with("Ip:")).collect();
            if let [names, values] = ip.as_slice() {
                let at = names.split_whitespace().position(|w| w == "InReceives");
                counts.1 += at
                    .and_then(|i| values.split_whitespace().nth(i))
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap_or(0);
            }
        }
        counts
    }

    /// `command` run in namespace `i`.
    fn inside(&self, i: usize, command: &str) -> String {
        format!("ip netns exec {} {command}", self.names[i])
    }
}

impl Drop for Lab {
    fn drop(&mut self) {
        for ns in &self.names {
            // Deleting the namespace takes its veth pair with it; the link is deleted too in
            // case the namespace was never made.
            let _ = Command::new("ip").args(["netns", "del", ns]).output();
            let _ = Command::new("ip")
                .args(["link", "del", &format!("{ns}o")])
                .output();
        }
    }
}

#[test]
#[ignore = "a measurement, run by hand as root"]
fn a_game_across_two_namespaces_with_loss_and_delay() {
    let lab = Lab::new(5);
    let (host_home, guest_home) = (temp_home("lossy-host"), temp_home("lossy-guest"));
    let mut host = start(
        &host_home,
        &lab.inside(
            0,
            &format!(
                "\"$KNIGHTFALL_BIN\" host --port 0 --tc 5+3 --color white --name Ana{STTY_AFTER}"
            ),
        ),
    );
    host.wait_for("the invitation", 20, |s| invitation(s).is_some());
    let (code, port) = invitation(&host).unwrap();
    let port: u16 = port.parse().unwrap();
    let proxy = crate::common::proxy::Proxy::between(
        "10.77.2.1",
        std::net::SocketAddr::from(([10, 77, 1, 2], port)),
    );
    proxy.delay(Duration::from_millis(150), Duration::from_millis(50));
    let mut guest = start(
        &guest_home,
        &lab.inside(
            1,
            &format!(
                "\"$KNIGHTFALL_BIN\" join {code} 10.77.2.1:{} --name Bob{STTY_AFTER}",
                proxy.port
            ),
        ),
    );
    sees(&host, "You play White against Bob");
    sees(&guest, "You play Black against Ana");
    let game = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7", "c4", "c6", "cxb5", "axb5", "Nc3", "Bb7",
        "Bg5", "b4", "Nb1", "h6",
    ];
    let mut seen_after = Vec::new();
    let mut chat = Vec::new();
    for (ply, san) in game.iter().enumerate() {
        let (mover, other) = if ply % 2 == 0 {
            (&mut host, &guest)
        } else {
            (&mut guest, &host)
        };
        let typed = Instant::now();
        type_line(mover, san);
        // As the move list writes a move: its number, White's move in a column of its own.
        let shown = if ply % 2 == 0 {
            format!("{}. {san}", ply / 2 + 1)
        } else {
            format!("{}. {:<9}{san}", ply / 2 + 1, game[ply - 1])
        };
        other.wait_for_screen(&shown, 60, |s| s.contains(&shown));
        seen_after.push(typed.elapsed());
        if ply % 10 == 9 {
            let text = format!("line {ply}");
            let sent = Instant::now();
            type_line(&mut guest, &format!("say {text}"));
            sees(&host, &format!("Bob: {text}"));
            chat.push(sent.elapsed());
        }
    }
    type_line(&mut host, "resign");
    sees(&host, "Resign this game?");
    host.send(b"y");
    sees(&guest, "Black wins");
    for s in [&mut host, &mut guest] {
        type_line(s, "quit");
        s.wait_for("the shell", 30, |s| s.text().contains("DONE"));
    }
    let (a, b) = (kept(&host_home), kept(&guest_home));
    assert_eq!(a.sans(), game);
    assert_eq!(a.sans(), b.sans());
    for ply in 0..game.len() {
        assert_eq!(a.clock_after(ply), b.clock_after(ply), "move {}", ply + 1);
    }
    let stats = |mut v: Vec<Duration>| {
        v.sort();
        let mean = v.iter().sum::<Duration>() / u32::try_from(v.len()).unwrap();
        format!(
            "mean {mean:.0?}, median {:.0?}, max {:.0?}",
            v[v.len() / 2],
            v[v.len() - 1]
        )
    };
    let (dropped, came) = lab.dropped();
    println!(
        "loss 5% into each namespace ({dropped} of {came} packets dropped), 150 ms +- 50 each \
         way, {} plies:",
        game.len()
    );
    assert!(dropped > 0, "no packet was dropped");
    println!("  typed to shown on the other side: {}", stats(seen_after));
    println!("  a chat line, typed to shown: {}", stats(chat));
    println!(
        "  charged a move, host: {}",
        stats(charged(&a, shakmaty::Color::White))
    );
    println!(
        "  charged a move, guest: {}",
        stats(charged(&a, shakmaty::Color::Black))
    );
    let _ = std::fs::remove_dir_all(&host_home);
    let _ = std::fs::remove_dir_all(&guest_home);
}
