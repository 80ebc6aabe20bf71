from click.testing import CliRunner

from dlx_latin.cli import main


def test_kernel_extension_is_built():
    result = CliRunner().invoke(main, ["kernel"])
    assert result.exit_code == 0
    assert result.output == "1\n"
