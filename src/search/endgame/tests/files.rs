//! The file format: round trips, damaged files refused with a typed error, builds stopped and
//! resumed.

use super::{assert_stored_bytes_equal, three_pieces};
use crate::games::english::English;
use crate::games::turkish::Turkish;
use crate::search::endgame::index::Material;
use crate::search::endgame::*;
use std::sync::atomic::AtomicBool;

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("damas-egtb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

/// Writes `bytes` as the `pieces` file of game `G` in `dir` and opens it.
fn open_bytes<G: EndgameGame>(
    dir: &std::path::Path,
    pieces: u32,
    bytes: &[u8],
) -> Result<Vec<CompactSlice>, EndgameError> {
    std::fs::write(file::path(dir, G::KIND, pieces), bytes).expect("writable");
    file::open::<G>(dir, pieces)
}

#[test]
fn files_round_trip_and_damaged_files_are_refused_with_a_typed_error() {
    let tables = three_pieces::<English>();
    let materials = Material::slices(3);
    let compact: Vec<CompactSlice> = materials
        .iter()
        .map(|material| {
            CompactSlice::compress::<English>(tables.raw_slice(material).expect("built"))
        })
        .collect();
    let refs: Vec<&CompactSlice> = compact.iter().collect();
    let dir = scratch("files");
    let written = file::write(&dir, GameKind::English, 3, &refs).expect("writes");
    let path = file::path(&dir, GameKind::English, 3);
    let bytes = std::fs::read(&path).expect("readable");
    assert_eq!(written, bytes.len() as u64);
    // A third of the 392,064 bytes the first format took: blocks compress.
    assert!(bytes.len() < 392_064 / 3, "{} bytes", bytes.len());
    let read = file::open::<English>(&dir, 3).expect("round trip");
    file::verify(&read).expect("every block reads back");
    assert_eq!(read.len(), materials.len());
    for (read, material) in read.iter().zip(&materials) {
        let raw = tables.raw_slice(material).expect("built");
        assert_eq!(read.index.material, *material);
        assert_eq!(read.counts, raw.counts());
        assert_stored_bytes_equal::<English>(
            &read.index,
            &read.values().expect("sound blocks"),
            &raw.values,
        );
    }

    let refused = |bytes: &[u8]| open_bytes::<English>(&dir, 3, bytes).map(|_| ());
    assert!(matches!(
        refused(&bytes[..bytes.len() - 1]),
        Err(EndgameError::Truncated)
    ));
    assert!(matches!(
        refused(&bytes[..10]),
        Err(EndgameError::Truncated)
    ));
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(matches!(refused(&magic), Err(EndgameError::NotATable)));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(matches!(refused(&version), Err(EndgameError::Version(9))));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(refused(&longer), Err(EndgameError::TrailingBytes)));
    // A slice's count or a block length changed: the header's checksum no longer matches.
    for at in [24 + 20, 24 + 48 * materials.len() + 3] {
        let mut header = bytes.clone();
        header[at] ^= 0x01;
        assert!(
            matches!(refused(&header), Err(EndgameError::Checksum)),
            "byte {at}"
        );
    }
    assert!(matches!(
        open_bytes::<Turkish>(&dir, 3, &bytes),
        Err(EndgameError::WrongGame { .. })
    ));
    assert!(matches!(
        open_bytes::<English>(&dir, 2, &bytes),
        Err(EndgameError::WrongPieces { .. })
    ));
    std::fs::remove_file(file::path(&dir, GameKind::English, 2)).expect("written above");

    // A damaged block opens (only the header is read) but is refused when read: the probe
    // answers nothing for its positions, the build's lookup says why, nothing panics.
    let mut damaged = bytes.clone();
    let last = damaged.len() - 10;
    damaged[last] ^= 0x40;
    let slices = open_bytes::<English>(&dir, 3, &damaged).expect("the header is sound");
    assert!(matches!(file::verify(&slices), Err(EndgameError::Checksum)));
    let last_slice = slices.last().expect("slices");
    let material = last_slice.index.material;
    let last_block = last_slice.blocks.len() - 1;
    let index = (last_block * BLOCK_POSITIONS..last_slice.index.len() as usize)
        .find_map(|index| last_slice.index.placement(English::squares(), index as u64))
        .expect("a valid position in the last block");
    let mut damaged_tables = GameTables::new(GameKind::English);
    for slice in slices {
        damaged_tables.insert_compact(slice);
    }
    assert!(matches!(
        damaged_tables.lookup::<English>(&index),
        Err(EndgameError::Checksum)
    ));
    assert_eq!(
        damaged_tables.probe(&English::from_placement(&index)),
        None,
        "{}",
        material.label()
    );
    std::fs::write(&path, &bytes).expect("writable");
    let _ = std::fs::remove_dir_all(&dir);

    // On disk: a directory whose 3-piece file is cut short loads the 2-piece table only and
    // says why it stopped.
    let dir = scratch("load");
    build_into(GameKind::English, 3, &dir, 1, &mut |_| {}).expect("builds");
    let loaded = load(GameKind::English, &dir).expect("a draughts game");
    assert_eq!(loaded.tables.pieces, 3);
    assert!(loaded.refused.is_none());
    let three = file::path(&dir, GameKind::English, 3);
    let bytes = std::fs::read(&three).expect("written");
    std::fs::write(&three, &bytes[..bytes.len() / 3]).expect("writable");
    let loaded = load(GameKind::English, &dir).expect("a draughts game");
    assert_eq!(loaded.tables.pieces, 2);
    assert!(matches!(loaded.refused, Some(EndgameError::Truncated)));
    // Building again replaces the damaged file.
    build_into(GameKind::English, 3, &dir, 1, &mut |_| {}).expect("rebuilds");
    assert_eq!(
        load(GameKind::English, &dir).expect("loads").tables.pieces,
        3
    );
    // No directory at all: no tables, no error.
    let missing = load(GameKind::English, &dir.join("nowhere")).expect("a draughts game");
    assert_eq!(missing.tables.pieces, 1);
    assert!(missing.refused.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stopped_build_keeps_its_finished_piece_counts_and_resumes_from_them() {
    let dir = std::env::temp_dir().join(format!("damas-egtb-stop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(installed(GameKind::English, &dir), Installed::default());
    assert_eq!(installed(GameKind::Diamond, &dir), Installed::default());

    // Stopped after the first 3-piece slice: the 2-piece file is whole, no 3-piece file.
    let stop = AtomicBool::new(false);
    let mut slices = 0;
    let stopped = build_until(GameKind::English, 3, &dir, 1, &stop, &mut |report| {
        slices += 1;
        if report
            .material
            .men
            .iter()
            .chain(&report.material.kings)
            .sum::<u8>()
            == 3
        {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
    assert!(matches!(stopped, Err(EndgameError::Stopped)), "{stopped:?}");
    let two_pieces = Material::slices(2).len();
    assert_eq!(
        slices,
        two_pieces + 1,
        "stops before the second 3-piece slice"
    );
    let two = file::path(&dir, GameKind::English, 2);
    assert!(!file::path(&dir, GameKind::English, 3).exists());
    let after_stop = installed(GameKind::English, &dir);
    assert_eq!(after_stop.pieces, 2);
    assert_eq!(
        after_stop.bytes,
        std::fs::metadata(&two).expect("written").len()
    );
    assert_eq!(
        load(GameKind::English, &dir).expect("loads").tables.pieces,
        2
    );

    // Resumed: the 2-piece file is read, the 3-piece slices built; every slice is reported
    // (read or built), and their positions add up to what `positions` promised.
    let (mut read, mut built) = (0, 0);
    let reports = build_into(GameKind::English, 3, &dir, 1, &mut |report| {
        if report.read {
            read += report.positions;
        } else {
            built += report.positions;
        }
    })
    .expect("resumes");
    assert!(reports[0].cached && !reports[1].cached);
    let total = positions(GameKind::English, 3).expect("a draughts game");
    assert_eq!(
        read,
        positions(GameKind::English, 2).expect("a draughts game")
    );
    assert_eq!(read + built, total);
    let whole = installed(GameKind::English, &dir);
    assert_eq!(whole.pieces, 3);
    let three = std::fs::metadata(file::path(&dir, GameKind::English, 3)).expect("written");
    assert_eq!(whole.bytes, after_stop.bytes + three.len());

    // A file cut short is not counted, and what follows it neither.
    let bytes = std::fs::read(&two).expect("readable");
    std::fs::write(&two, &bytes[..bytes.len() - 1]).expect("writable");
    assert_eq!(installed(GameKind::English, &dir), Installed::default());
    assert!(matches!(
        positions(GameKind::Diamond, 3),
        Err(EndgameError::NotDraughts(_))
    ));
    assert!(matches!(
        positions(GameKind::English, 7),
        Err(EndgameError::Pieces(7))
    ));
    let _ = std::fs::remove_dir_all(&dir);
}
