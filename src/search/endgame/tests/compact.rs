//! The compressed tables answer exactly as the value bytes they were made from: every index the
//! files store, read back through a small block cache, and every position probed (those that must
//! capture, which the files do not store, worked out from their captures).

use super::{assert_stored_bytes_equal, built, three_pieces};
use crate::games::english::English;
use crate::games::international::International;
use crate::games::turkish::Turkish;
use crate::search::endgame::compact::is_stored;
use crate::search::endgame::index::Material;
use crate::search::endgame::*;
use crate::search::searchable::Searchable;
use std::path::Path;

/// `raw`'s slices of 2 to `pieces` pieces written compressed into `dir` and opened again, with
/// a cache of `cache_blocks` blocks.
fn written_and_opened<G: EndgameGame>(
    raw: &GameTables,
    pieces: u32,
    dir: &Path,
    cache_blocks: usize,
) -> GameTables {
    let mut opened = GameTables::with_cache(G::KIND, cache_blocks * BLOCK_POSITIONS);
    for n in 2..=pieces {
        let compact: Vec<CompactSlice> = Material::slices(n)
            .iter()
            .map(|material| CompactSlice::compress::<G>(raw.raw_slice(material).expect("built")))
            .collect();
        let refs: Vec<&CompactSlice> = compact.iter().collect();
        file::write(dir, G::KIND, n, &refs).expect("writes");
        for slice in file::open::<G>(dir, n).expect("opens") {
            opened.insert_compact(slice);
        }
        opened.pieces = n;
    }
    opened
}

/// Every index of every slice of 2 to `pieces` pieces: the byte read through the opened files
/// equals the built one wherever the file stores it, in index order and again in a scattered
/// order that misses the cache; every valid position probes to the same value (at least one
/// that must capture in every slice with men of both sides). Returns the valid positions compared.
/// The cache holds `cache_blocks` blocks: a few for the 3-piece tables; more for the 4-piece ones,
/// whose capture positions read their captures' blocks in other slices at every step.
fn compare_every_index<G: EndgameGame + Searchable>(
    raw: &GameTables,
    pieces: u32,
    name: &str,
    cache_blocks: usize,
) -> u64 {
    let dir =
        std::env::temp_dir().join(format!("damas-egtb-compact-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opened = written_and_opened::<G>(raw, pieces, &dir, cache_blocks);
    let mut compared = 0;
    for n in 2..=pieces {
        for material in Material::slices(n) {
            let table = raw.raw_slice(&material).expect("built");
            let len = table.index.len();
            let mut must_capture = 0;
            for index in 0..len {
                let built = table.values[index as usize];
                if is_stored::<G>(&table.index, index, built) {
                    let byte = opened.byte_at(&material, index).expect("sound blocks");
                    assert_eq!(byte, Some(built), "{} #{index}", material.label());
                }
                if let Some(placement) = table.index.placement(G::squares(), index) {
                    compared += 1;
                    let position = G::from_placement(&placement);
                    must_capture += u32::from(position.must_capture());
                    assert_eq!(
                        opened.probe(&position),
                        raw.probe(&position),
                        "{} #{index}",
                        material.label()
                    );
                }
            }
            if material.men[0] > 0 && material.men[1] > 0 {
                assert!(must_capture > 0, "{}", material.label());
            }
            // Then jumping between blocks, so that the four cached blocks keep being replaced.
            let stride = (1_000_003 % len.max(2)) | 1;
            let mut index = 0;
            for _ in 0..len.min(3_000) {
                let built = table.values[index as usize];
                if is_stored::<G>(&table.index, index, built) {
                    let byte = opened.byte_at(&material, index).expect("sound blocks");
                    assert_eq!(byte, Some(built));
                }
                index = (index + stride) % len;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    compared
}

#[test]
fn compressed_three_piece_tables_answer_every_index_as_the_built_ones() {
    assert_eq!(
        compare_every_index::<English>(three_pieces::<English>(), 3, "english3", 4),
        6_976 + 392_064
    );
    assert!(
        compare_every_index::<International>(three_pieces::<International>(), 3, "int3", 4) > 0
    );
    assert!(compare_every_index::<Turkish>(three_pieces::<Turkish>(), 3, "turkish3", 4) > 0);
}

#[test]
fn compressed_english_four_piece_tables_answer_every_index_as_the_built_ones() {
    let tables = built::<English>(4);
    assert_eq!(
        compare_every_index::<English>(&tables, 4, "english4", 64),
        6_976 + 392_064 + 12_418_632
    );
}

#[test]
#[ignore = "deep: builds the International and Turkish 4-piece tables (about 330 million indices)"]
fn compressed_international_and_turkish_four_piece_tables_answer_every_index_as_the_built_ones() {
    let international = built::<International>(4);
    assert!(compare_every_index::<International>(&international, 4, "int4", 64) > 0);
    drop(international);
    let turkish = built::<Turkish>(4);
    assert!(compare_every_index::<Turkish>(&turkish, 4, "turkish4", 64) > 0);
}

#[test]
fn threads_probing_through_a_two_block_cache_read_the_built_values() {
    let raw = three_pieces::<English>();
    let dir = std::env::temp_dir().join(format!("damas-egtb-threads-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opened = written_and_opened::<English>(raw, 3, &dir, 2);
    let materials = Material::slices(3);
    std::thread::scope(|scope| {
        for thread in 0..2u64 {
            let (opened, materials) = (&opened, &materials);
            scope.spawn(move || {
                // Each thread walks every slice with its own stride: the two fight over the
                // cache's two slots all along.
                for material in materials {
                    let table = raw.raw_slice(material).expect("built");
                    let len = table.index.len();
                    let stride = ((7_919 + 2 * thread) % len) | 1;
                    let mut index = thread % len;
                    for _ in 0..len.min(3_000) {
                        let built = table.values[index as usize];
                        if is_stored::<English>(&table.index, index, built) {
                            let byte = opened.byte_at(material, index).expect("sound blocks");
                            assert_eq!(byte, Some(built));
                        }
                        index = (index + stride) % len;
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_build_holds_its_slices_compressed_and_writes_the_same_values() {
    // `build_into` compresses each slice as it is solved and builds the next ones on top of the
    // compressed ones: its files hold the bytes of the all-in-memory build.
    let dir = std::env::temp_dir().join(format!("damas-egtb-compressing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    build_into(GameKind::Turkish, 3, &dir, 2, &mut |_| {}).expect("builds");
    let raw = three_pieces::<Turkish>();
    for n in 2..=3 {
        for slice in file::open::<Turkish>(&dir, n).expect("opens") {
            let table = raw.raw_slice(&slice.index.material).expect("built");
            assert_stored_bytes_equal::<Turkish>(
                &slice.index,
                &slice.values().expect("sound blocks"),
                &table.values,
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "figures: prints the cost of a probe, held as built and compressed (cargo test -p damas --lib probe_cost_figures -- --ignored --nocapture)"]
fn probe_cost_figures() {
    use rand::{Rng, SeedableRng};
    let raw = built::<English>(4);
    let dir = std::env::temp_dir().join(format!("damas-egtb-cost-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opened =
        written_and_opened::<English>(&raw, 4, &dir, DEFAULT_CACHE_BYTES / BLOCK_POSITIONS);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    let materials = Material::slices(4);
    let positions: Vec<English> = (0..1_000_000)
        .filter_map(|_| {
            let material = materials[rng.gen_range(0..materials.len())];
            let table = raw.raw_slice(&material).expect("built");
            let index = rng.gen_range(0..table.index.len());
            table.index.placement(English::squares(), index)
        })
        .map(|placement| English::from_placement(&placement))
        .collect();
    let time = |tables: &GameTables| {
        let started = std::time::Instant::now();
        let found = positions
            .iter()
            .filter(|p| tables.probe(*p).is_some())
            .count();
        (
            started.elapsed().as_nanos() as f64 / positions.len() as f64,
            found,
        )
    };
    let (built_ns, built_found) = time(&raw);
    let (cold_ns, cold_found) = time(&opened);
    let (warm_ns, warm_found) = time(&opened);
    assert_eq!((cold_found, warm_found), (built_found, built_found));
    println!(
        "English 4 pieces, {} random positions: in memory {built_ns:.0} ns a probe; compressed, \
         cache cold {cold_ns:.0} ns, warm {warm_ns:.0} ns",
        positions.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
