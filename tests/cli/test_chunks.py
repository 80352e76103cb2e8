"""How files are divided among worker processes: largest first, in shrinking chunks."""

from assetcheck.cli.chunks import PER_FILE_BYTES, plan_chunks


def test_every_file_is_in_one_chunk_and_the_largest_come_first():
    sizes = [10, 5_000_000, 300, 2_000_000, 0, 300, 70_000]
    chunks = plan_chunks(sizes, workers=2)
    order = [index for chunk in chunks for index in chunk]
    assert sorted(order) == list(range(len(sizes)))
    assert [sizes[index] for index in order] == sorted(sizes, reverse=True)
    assert order.index(2) < order.index(5)  # equal sizes keep their order


def test_small_files_share_chunks_that_shrink_to_single_files_at_the_end():
    chunks = plan_chunks([1000] * 200, workers=2)
    lengths = [len(chunk) for chunk in chunks]
    assert lengths[0] == 50  # a quarter of the work: half of it for each of two workers
    assert lengths == sorted(lengths, reverse=True)
    assert lengths[-3:] == [1, 1, 1]
    assert len(chunks) < 40


def test_a_large_file_is_a_chunk_of_its_own():
    chunks = plan_chunks([50 * PER_FILE_BYTES, 1000, 1000, 1000], workers=2)
    assert chunks[0] == [0]


def test_no_files_no_chunks():
    assert plan_chunks([], workers=4) == []
