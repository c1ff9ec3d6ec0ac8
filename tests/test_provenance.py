from irrepro import data, provenance


def test_package_versions_names_python_and_numpy():
    versions = provenance.package_versions().set_index("package")["version"]
    assert versions["python"].startswith("3.")
    assert versions["numpy"] != "not installed"


def test_git_commit_is_a_hash_or_says_unknown():
    commit = provenance.git_commit()
    assert commit.startswith("unknown") or len(commit.split("+")[0]) == 40


def test_data_files_lists_only_cached_verified_files():
    data.fetch("topics/core17.txt")
    files = provenance.data_files().set_index("file")
    assert files.loc["topics/core17.txt", "verified"]
    assert set(files.index) <= set(data.registry())
