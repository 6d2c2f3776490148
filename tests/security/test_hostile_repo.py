"""A hostile repository: every program its configuration, attributes or hooks name writes a marker
file, and `validate`, `exposure` and the app's start (git checks on) must leave no marker.

Each hostile repository is first shown to be armed: plain git commands in it do write markers,
so a run that writes none has really switched them off (and the test can fail).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.app.support import wait_until
from tests.git.conftest import (
    CANARY,
    CONTRIBUTOR,
    INIT_SETTINGS,
    TRAJECTORY,
    Repo,
    base_files,
    holdout_yaml,
    isolated_git,  # noqa: F401  (autouse: no machine git configuration)
)
from tests.gitconfig import add_settings
from voyage_tui.app.app import VoyageApp
from voyage_tui.app.settings import AppSettings
from voyage_tui.cli import main
from voyage_tui.engine.workspace.layout import git_ignored
from voyage_tui.engine.workspace.model import Workspace

H1 = "fixtures/bug-diagnosis/h1/task.yaml"
LEAK = "docs/leak.txt"
MISSING = "deadbeef" * 5
CONFIG = '[holdout]\ncustodians = ["cora@evals.example"]\nbundle_paths = ["agent/**"]\n'

HOOKS = [
    "applypatch-msg",
    "pre-applypatch",
    "post-applypatch",
    "pre-commit",
    "pre-merge-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-rebase",
    "post-checkout",
    "post-merge",
    "pre-push",
    "pre-receive",
    "update",
    "proc-receive",
    "post-receive",
    "post-update",
    "reference-transaction",
    "push-to-checkout",
    "pre-auto-gc",
    "post-rewrite",
    "sendemail-validate",
    "fsmonitor-watchman",
    "p4-changelist",
    "p4-prepare-changelist",
    "p4-post-changelist",
    "p4-pre-submit",
    "post-index-change",
]
COMMIT_HOOKS = {"hook-pre-commit", "hook-prepare-commit-msg", "hook-commit-msg", "hook-post-commit"}

TRAP = """\
#!/bin/sh
name="$1"; shift
echo "$*" >> "{markers}/$name"
case "$name" in filter-*|textconv) cat ;; esac
exit 0
"""

ATTRIBUTES = "* filter=x diff=x merge=x\n*.md filter=p\n*.json filter=inc\n*.toml filter=cond\n"
"""`*`: clean/smudge driver x, textconv and diff command x; .md: a long-running `process` filter;
.json and .toml: drivers defined only in included config files."""


@dataclass
class Hostile:
    root: Path
    markers_dir: Path
    trap: Path
    leak_commit: str

    def markers(self) -> list[str]:
        return sorted(p.name for p in self.markers_dir.iterdir())

    def clear(self) -> None:
        for marker in self.markers_dir.iterdir():
            marker.unlink()

    def plain_git(self, *args: str, input: bytes | None = None, cwd: Path | None = None) -> None:
        """git as a person would run it in this repository (the traps are live)."""
        subprocess.run(
            ["git", *args], cwd=cwd or self.root, input=input, capture_output=True, check=False
        )


def make_trap(tmp_path: Path) -> tuple[Path, Path]:
    markers = tmp_path / "markers"
    markers.mkdir()
    trap = tmp_path / "trap" / "trap.sh"
    trap.parent.mkdir()
    trap.write_text(TRAP.format(markers=markers))
    trap.chmod(0o755)
    return markers, trap


def make_hooks(folder: Path, trap: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for hook in HOOKS:
        script = folder / hook
        script.write_text(f'#!/bin/sh\n{trap} hook-{hook} "$@"\nexit 0\n')
        script.chmod(0o755)


def program_settings(trap: Path, markers: Path, tmp_path: Path) -> list[tuple[str, str]]:
    """Every setting of a repository's config that names a program git may run (or a file it
    writes), each writing its own marker."""

    def t(name: str) -> str:
        """A program of its own for `name` (some settings are run as a path, not a command)."""
        program = trap.parent / name
        program.write_text(f'#!/bin/sh\nexec {trap} {name} "$@"\n')
        program.chmod(0o755)
        return str(program)

    included = tmp_path / "included.gitconfig"
    included.write_text(
        f'[gpg]\n\tprogram = {t("gpg")}\n[filter "inc"]\n\tclean = {t("filter-inc-clean")}\n'
        f"\tsmudge = {t('filter-inc-smudge')}\n\trequired = true\n"
    )
    conditional = tmp_path / "conditional.gitconfig"
    conditional.write_text(
        f'[filter "cond"]\n\tclean = {t("filter-cond-clean")}\n'
        f"\tprocess = {t('filter-cond-process')}\n"
    )
    alternate = Repo(tmp_path / "alternate").init()
    alternate.commit({"x.txt": "x\n"})
    return [
        ("core.fsmonitor", t("fsmonitor")),
        ("core.hooksPath", str(tmp_path / "hooks")),
        ("core.pager", t("pager")),
        ("pager.log", t("pager-log")),
        ("pager.blame", t("pager-blame")),
        ("pager.ls-files", t("pager-ls-files")),
        ("core.editor", t("editor")),
        ("sequence.editor", t("sequence-editor")),
        ("core.askPass", t("askpass")),
        ("core.sshCommand", t("ssh-command")),
        ("core.gitProxy", t("git-proxy")),
        ("core.alternateRefsCommand", t("alternate-refs")),
        ("credential.helper", f"!{t('credential')}"),
        ("diff.external", t("diff-external")),
        ("diff.x.textconv", t("textconv")),
        ("diff.x.command", t("diff-command")),
        ("merge.x.driver", t("merge-driver")),
        ("filter.x.clean", t("filter-clean")),
        ("filter.x.smudge", t("filter-smudge")),
        ("filter.x.required", "true"),
        ("filter.p.process", t("filter-process")),
        ("gpg.ssh.program", t("gpg-ssh")),
        ("gpg.x509.program", t("gpg-x509")),
        ("gpg.ssh.defaultKeyCommand", t("gpg-ssh-default-key")),
        ("commit.gpgSign", "true"),
        ("tag.gpgSign", "true"),
        ("log.showSignature", "true"),
        ("include.path", str(included)),
        ("includeIf.gitdir:/.path", str(conditional)),
        # a partial clone: a missing object is fetched from the promisor remotes
        ("core.repositoryFormatVersion", "1"),
        ("extensions.partialClone", "origin"),
        ("remote.origin.url", f"ext::{t('ext-remote')}"),
        ("remote.origin.promisor", "true"),
        ("remote.origin.uploadpack", t("uploadpack")),
        ("remote.origin.receivepack", t("receivepack")),
        ("protocol.ext.allow", "always"),
        ("remote.viassh.url", "ssh://example.invalid/x"),
        ("remote.viassh.promisor", "true"),
        ("remote.viagit.url", "git://example.invalid/x"),
        ("remote.viagit.promisor", "true"),
        ("uploadpack.packObjectsHook", t("pack-objects-hook")),
        ("trace2.normalTarget", str(markers / "trace2-normal")),
        ("trace2.eventTarget", str(markers / "trace2-event")),
        ("gc.auto", "1"),
        ("maintenance.auto", "true"),
        ("alias.retire", f"!{t('alias')}"),
    ]


def sign_head(repo: Repo) -> None:
    """Give HEAD a (fake) signature, so showing it runs gpg.program."""
    raw = repo.git("cat-file", "commit", "HEAD")
    header, _, message = raw.partition("\n\n")
    signature = (
        "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----"
    )
    signed = f"{header}\n{signature}\n\n{message}\n"
    sha = repo.git("hash-object", "-t", "commit", "-w", "--stdin", input=signed.encode())
    repo.git("update-ref", "refs/heads/main", sha)


def plant(git_dir: Path, settings: list[tuple[str, str]]) -> None:
    """Each setting added as `git config --add` would (a key given twice keeps both values);
    test_planted_text_reads_as_git_config_add_writes_it shows git reads the same entries."""
    add_settings(git_dir / "config", settings)


TRICKY = [
    ("sect.plain", "simple"),
    ("Capital.first", "the section is written [Capital]"),
    ("later.key", "a section after it"),
    ("capital.second", "joins [Capital], before [later]"),
    ("SECT.Upper", "the section's name is case-insensitive: this joins [sect]"),
    ("sect.spaces", "  leading and trailing  "),
    ("sect.blank", "   "),
    ("sect.empty", ""),
    ("sect.semicolon", "a;b ; c"),
    ("sect.hash", "a # b #c"),
    ("sect.quotes", 'say "hi" and "'),
    ("sect.backslashes", "C:\\dir\\ and \\n and a trailing \\"),
    ("sect.newline", "one\ntwo\n"),
    ("sect.tab", "a\tb\t"),
    ("sect.carriage", "a\rb"),
    ("sect.equals", "=x = y"),
    ("sect.unicode", "caf\u00e9 \u2603 \u2028 end"),
    ("multi.value", "1"),
    ("other.key", "between"),
    ("multi.value", "2"),
    ("multi.value", "2"),
    ("remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"),
    ("branch.feature/x.remote", "origin"),
    ("sub.dotted.name.key", "the subsection is `dotted.name`"),
    ("Sub.CaseSub.Key", "a subsection's case counts"),
    ("sub.casesub.key", "so this is another section"),
    ('sub.with "quotes" and \\ back\\.key', "v"),
    ("sub.with spaces; and # signs.key", "v"),
    ("multi.value", "3, after other sections"),
    ("core.bare", "false"),
]


def test_planted_text_reads_as_git_config_add_writes_it(tmp_path: Path) -> None:
    """From the config `git init` writes, the settings Repo.init and plant() add read back, in
    `git config --list`, exactly as the same `git config --add` calls leave them."""
    markers, trap = make_trap(tmp_path)
    settings = [*INIT_SETTINGS, *TRICKY, *program_settings(trap, markers, tmp_path)]
    fresh = tmp_path / "fresh"
    subprocess.run(["git", "init", "-q", str(fresh)], check=True, capture_output=True)
    by_git, by_text = tmp_path / "by-git", tmp_path / "by-text"
    for copy in (by_git, by_text):
        copy.write_bytes((fresh / ".git" / "config").read_bytes())
    for key, value in settings:
        subprocess.run(
            ["git", "config", "--file", str(by_git), "--add", key, value],
            check=True,
            capture_output=True,
        )
    add_settings(by_text, settings)

    def listed(config: Path) -> list[str]:
        out = subprocess.run(
            ["git", "config", "--file", str(config), "--null", "--list"],
            check=True,
            capture_output=True,
        ).stdout
        return out.decode().split("\0")

    expected = listed(by_git)
    assert len(expected) > len(settings)  # git init's own [core] entries too
    assert listed(by_text) == expected


def build(tmp_path: Path, attributes_at: str, attributes: str = ATTRIBUTES) -> Hostile:
    markers, trap = make_trap(tmp_path)
    repo = Repo(tmp_path / "ws").init()
    first = repo.commit(
        base_files(CONFIG) | {H1: holdout_yaml("h1"), LEAK: "a line\n", "agent/prompt.txt": "v1\n"}
    )
    # h1 changed by a non-custodian together with the bundle: foreign-author and co-change
    repo.commit({H1: holdout_yaml("h1") + "# edit\n", "agent/prompt.txt": "v2\n"}, who=CONTRIBUTOR)
    leak_commit = repo.commit({LEAK: f"a line\n{CANARY}\n"})
    repo.commit(
        {
            "fixtures/trajectories/t1/task.yaml": TRAJECTORY.format(id="t1", sha=MISSING),
            "fixtures/trajectories/t2/task.yaml": TRAJECTORY.format(id="t2", sha=first),
            "gold/g.json": "{}\n",
            "docs/readme.md": "hello\n",
        }
    )
    if attributes_at == "committed":
        repo.commit({".gitattributes": attributes})
    sign_head(repo)
    git_dir = repo.root / ".git"
    if attributes_at == "info":
        (git_dir / "info").mkdir(exist_ok=True)
        (git_dir / "info" / "attributes").write_text(attributes)
    make_hooks(tmp_path / "hooks", trap)
    make_hooks(git_dir / "hooks", trap)
    (git_dir / "objects" / "info" / "alternates").write_text(
        str(tmp_path / "alternate" / ".git" / "objects") + "\n"
    )
    plant(git_dir, program_settings(trap, markers, tmp_path))
    # a leaking file changed in the work tree, so its lines are blamed against the work tree
    (repo.root / LEAK).write_text(f"a line\n{CANARY}\nmore\n")
    return Hostile(repo.root, markers, trap, leak_commit)


@pytest.fixture(params=["info", "committed"])
def hostile(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Hostile]:
    """Attributes naming the drivers in .git/info/attributes, or in a committed .gitattributes."""
    found = build(tmp_path, request.param)
    assert found.markers() == []
    yield found


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- the traps are armed ----------------------------------------------------------------------


def test_plain_git_in_the_hostile_repository_runs_its_programs(hostile: Hostile) -> None:
    hostile.plain_git("status")
    hostile.plain_git("diff")
    hostile.plain_git("log", "-1", "-p")
    hostile.plain_git("cat-file", "--batch-check", input=f"{MISSING}\n".encode())
    hostile.plain_git("commit", "--allow-empty", "-q", "-m", "x")
    found = set(hostile.markers())
    expected = {
        "fsmonitor",
        "filter-clean",
        "textconv",
        "diff-command",
        "gpg",
        "ext-remote",
        "hook-pre-commit",
        "hook-commit-msg",
    }
    assert expected <= found, expected - found
    hostile.clear()
    hostile.plain_git("diff", "--", "docs/readme.md")
    (hostile.root / "docs/readme.md").write_text("changed\n")
    (hostile.root / "gold/g.json").write_text("[]\n")
    (hostile.root / "voyage.toml").write_text(CONFIG + "\n")
    hostile.plain_git("add", "-A")
    found = set(hostile.markers())
    assert {"filter-process", "filter-inc-clean", "filter-cond-process"} <= found, found


# --- nothing runs -----------------------------------------------------------------------------


def test_validate_runs_nothing_the_repository_names(
    hostile: Hostile, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "validate", str(hostile.root), "--format", "json")
    assert "Traceback" not in err
    assert code == 1
    assert '"holdout-exposed"' in out  # the git checks ran
    assert '"sha-not-fetched"' in out  # a partial clone: the missing SHA is not fetched
    assert hostile.markers() == []


def test_exposure_runs_nothing_the_repository_names(
    hostile: Hostile, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "exposure", str(hostile.root), "--format", "json")
    assert "Traceback" not in err
    assert code == 1, out
    [h1] = json.loads(out)["exposed"]
    assert [s["kind"] for s in h1["signals"]] == [
        "foreign-author",
        "co-change",
        "co-change",
        "canary-leak",
    ]
    leak = h1["signals"][-1]
    # the changed file was blamed, against the work tree, to the commit that wrote the line
    assert f"{LEAK}:2" in leak["detail"] and leak["commit"] == hostile.leak_commit
    assert hostile.markers() == []


def test_the_ignore_check_runs_nothing_the_repository_names(hostile: Hostile) -> None:
    (hostile.root / ".gitignore").write_text("skipped.json\n")
    ws = Workspace.load(hostile.root)
    assert git_ignored(ws, ["gold/g.json", "skipped.json"]) == {"skipped.json"}
    assert hostile.markers() == []


async def test_the_app_start_runs_nothing_the_repository_names(hostile: Hostile) -> None:
    app = VoyageApp(Workspace.load(hostile.root), AppSettings(use_git=True, watch=False, keymap={}))
    async with app.run_test() as pilot:

        def git_checked() -> bool:
            suite = app.live.suite
            return suite is not None and suite.git.exposure is not None

        await wait_until(pilot, git_checked, timeout=30)
        suite = app.live.suite
        assert suite is not None and suite.git.exposure is not None
        assert [h.id for h in suite.git.exposure.exposed] == ["h1"]
        await pilot.pause()
    assert hostile.markers() == []


# --- the commit a person asks for ---------------------------------------------------------------


def test_a_retire_commit_runs_the_repository_hooks_and_nothing_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = build(tmp_path, "info", attributes="*.md filter=p\n*.txt filter=x diff=x\n")
    code, out, err = run(capsys, "exposure", str(hostile.root), "--retire", "h1", "--commit")
    assert code == 0, err
    assert "committed" in out
    found = set(hostile.markers())
    assert found >= COMMIT_HOOKS  # as `git commit` would
    assert {m for m in found if not m.startswith("hook-")} == set()
    log = subprocess.run(
        ["git", "show", "--name-only", "--format=%s", "HEAD"],
        cwd=hostile.root,
        capture_output=True,
        text=True,
        env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1"},
    )
    assert log.stdout.split()[-1] == H1


def test_a_retire_commit_of_a_filtered_file_is_refused(
    hostile: Hostile, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "exposure", str(hostile.root), "--retire", "h1", "--commit")
    assert code == 1
    assert "filter `x`" in err and "commit it with git" in err
    assert "visibility: public" in (hostile.root / H1).read_text()
    assert hostile.markers() == []


# --- an embedded bare repository --------------------------------------------------------------


def embed_bare_repository(folder: Path, tmp_path: Path, trap: Path, markers: Path) -> None:
    """Make `folder` look like a repository to git (HEAD, config, objects/, refs/) whose config
    gives it a work tree and runs programs."""
    (folder / "objects").mkdir(parents=True, exist_ok=True)
    (folder / "refs" / "heads").mkdir(parents=True, exist_ok=True)
    (folder / "objects" / "keep").write_text("")
    (folder / "refs" / "heads" / "keep").write_text("")
    (folder / "HEAD").write_text("ref: refs/heads/main\n")
    (folder / "config").write_text("[core]\n\trepositoryformatversion = 0\n")
    make_hooks(tmp_path / "embedded-hooks", trap)
    settings = [
        ("core.bare", "false"),
        ("core.worktree", str(folder)),
        ("core.fsmonitor", f"{trap} embedded-fsmonitor"),
        ("core.hooksPath", str(tmp_path / "embedded-hooks")),
        ("log.showSignature", "true"),
        ("gpg.program", f"{trap} embedded-gpg"),
    ]
    plant(folder, settings)


@pytest.fixture
def embedded(tmp_path: Path) -> Hostile:
    """A repository whose workspace folder `suite/`, committed, is shaped like a repository."""
    markers, trap = make_trap(tmp_path)
    outer = Repo(tmp_path / "outer").init()
    files = {f"suite/{k}": v for k, v in base_files(CONFIG).items()}
    files[f"suite/{H1}"] = holdout_yaml("h1")
    files["suite/gold/g.json"] = "{}\n"
    files["suite/fixtures/trajectories/t1/task.yaml"] = TRAJECTORY.format(id="t1", sha=MISSING)
    outer.commit(files)
    outer.commit({f"suite/{H1}": holdout_yaml("h1") + "# x\n"}, who=CONTRIBUTOR)
    root = outer.root / "suite"
    embed_bare_repository(root, tmp_path, trap, markers)
    outer.commit({f"suite/{p}": (root / p).read_text() for p in ("HEAD", "config")})
    hostile = Hostile(root, markers, trap, outer.git("rev-parse", "HEAD"))
    # armed: git takes the folder for a repository and runs what its config names
    hostile.plain_git("status")
    assert "embedded-fsmonitor" in hostile.markers()
    hostile.clear()
    return hostile


def test_an_embedded_bare_repository_is_not_opened(
    embedded: Hostile, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "exposure", str(embedded.root), "--format", "json")
    assert "Traceback" not in err
    # the repository is the outer one, the one a `.git` entry names: h1's history is read there
    assert code == 1 and '"foreign-author"' in out
    code, out, err = run(capsys, "validate", str(embedded.root), "--format", "json")
    assert "Traceback" not in err and '"sha-not-found"' in out
    assert embedded.markers() == []


async def test_the_app_does_not_open_an_embedded_bare_repository(embedded: Hostile) -> None:
    app = VoyageApp(
        Workspace.load(embedded.root), AppSettings(use_git=True, watch=False, keymap={})
    )
    async with app.run_test() as pilot:
        await wait_until(
            pilot,
            lambda: app.live.suite is not None and app.live.suite.git.exposure is not None,
            30,
        )
        assert [h.id for h in app.live.suite.git.exposure.exposed] == ["h1"]
    assert embedded.markers() == []


def test_a_workspace_shaped_like_a_repository_outside_any_repository(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    markers, trap = make_trap(tmp_path)
    root = tmp_path / "ws"
    Repo(root).write(
        base_files(CONFIG)
        | {H1: holdout_yaml("h1"), "gold/g.json": "{}\n"}
        | {"fixtures/trajectories/t1/task.yaml": TRAJECTORY.format(id="t1", sha=MISSING)}
    )
    embed_bare_repository(root, tmp_path, trap, markers)
    assert not any((p / ".git").exists() for p in root.parents)  # no repository above it
    hostile = Hostile(root, markers, trap, "")
    hostile.plain_git("status")
    assert "embedded-fsmonitor" in hostile.markers()
    hostile.clear()
    code, out, err = run(capsys, "exposure", str(root))
    assert "Traceback" not in err and code == 0
    assert "not tracked" in out and "looks like a bare repository" in out
    code, out, err = run(capsys, "validate", str(root), "--format", "json")
    assert "Traceback" not in err and '"git-no-repository"' in out
    assert hostile.markers() == []


def test_git_repo_naming_a_bare_repository_inside_the_workspace_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    markers, trap = make_trap(tmp_path)
    repo = Repo(tmp_path / "ws").init()
    repo.commit(
        base_files(CONFIG + '[git]\nrepo = "vendor/evil"\n')
        | {"fixtures/trajectories/t1/task.yaml": TRAJECTORY.format(id="t1", sha=MISSING)}
    )
    evil = repo.root / "vendor" / "evil"
    embed_bare_repository(evil, tmp_path, trap, markers)
    code, out, err = run(capsys, "validate", str(repo.root), "--format", "json")
    assert "Traceback" not in err and code == 0
    assert '"git-embedded-repository"' in out and '"sha-not-found"' not in out
    assert sorted(p.name for p in markers.iterdir()) == []


@pytest.mark.parametrize("command", ["validate", "exposure"])
def test_a_fresh_process_started_inside_the_repository_runs_nothing(
    hostile: Hostile, command: str
) -> None:
    # From the repository's own folder, with gitpython imported afresh (it runs `git version`
    # on import, from the current folder).
    proc = subprocess.run(
        [sys.executable, "-m", "voyage_tui", command],
        cwd=hostile.root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert hostile.markers() == []
