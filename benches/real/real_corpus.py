"""What the scripts of benches/real that score simdup against a corpus's
exact ground truth share: their command line (`CORPUS [THRESHOLD [--
SIMDUP ARGS...]]`) and the relevant pairs of the truth file."""
import json
import os
import sys


class Run:
    """A scoring run: the corpus folder, the threshold, simdup's binary,
    the extra arguments for it and the folder holding the truth."""

    def __init__(self, argv, usage):
        args = list(argv)
        self.extra = []
        if "--" in args:
            self.extra = args[args.index("--") + 1:]
            args = args[: args.index("--")]
        if not args:
            sys.exit(usage)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        self.simdup = os.path.abspath(
            os.environ.get("SIMDUP", os.path.join(root, "target/release/simdup"))
        )
        self.name = args[0]
        self.corpus = os.path.join(root, "target/real", args[0])
        self.threshold = float(args[1]) if len(args) > 1 else 0.8
        # The text view's truth when there is one: simdup reads it so.
        text = self.corpus + "-text"
        self.truth_dir = text if os.path.isdir(text) else self.corpus

    def near(self):
        """Each document's relevant partners (Jaccard >= the threshold)."""
        near = {}
        with open(os.path.join(self.truth_dir, "truth-words3.jsonl")) as truth:
            for line in truth:
                pair = json.loads(line)
                if "a" in pair and pair["jaccard"] >= self.threshold:
                    near.setdefault(pair["a"], set()).add(pair["b"])
                    near.setdefault(pair["b"], set()).add(pair["a"])
        return near
