// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Every citation resolves inside the repository: a person who clones FabricLab can check each
// calibrated constant and each published figure without anything beside the clone. The suite
// walks the code, catalogs, figures, schemas, scripts, tests and documentation and fails on
// a citation of a document that is not in the repository (the notes the project was started
// from), on a repository path that does not exist, on a section of the NCCL cost-model notes
// that has no heading, and on an article the published-figures notes do not describe.
#include <QTest>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kRoot = FABRICLAB_SOURCE_DIR;
const char* const kNcclNotes = "docs/reference/nccl-cost-model.md";
const char* const kFigureNotes = "docs/reference/published-figures.md";

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The files a citation can sit in: source, catalogs, figures, schemas, scripts, tests and
/// documentation, outside the build trees.
std::vector<fs::path> citingFiles() {
    static const std::set<std::string> extensions = {".cpp", ".hpp", ".json",  ".md",
                                                     ".py",  ".sh",  ".cmake", ".txt"};
    std::vector<fs::path> files;
    for (const char* folder : {"model", "views", "app", "resources", "schemas", "scripts", "tests",
                               "docs", "bench", "fuzz", "cmake", "samples"}) {
        if (!fs::exists(kRoot / folder))
            continue;
        for (const auto& entry : fs::recursive_directory_iterator(kRoot / folder))
            if (entry.is_regular_file() && extensions.count(entry.path().extension().string()))
                files.push_back(entry.path());
    }
    files.push_back(kRoot / "README.md");
    files.push_back(kRoot / "CMakeLists.txt");
    return files;
}

std::string repoPath(const fs::path& path) {
    return fs::relative(path, kRoot).generic_string();
}

/// Every match of `pattern` in every citing file, as "file: match".
std::vector<std::pair<std::string, std::smatch>> matches(const std::regex& pattern,
                                                         std::vector<std::string>& texts) {
    std::vector<std::pair<std::string, std::smatch>> found;
    texts.clear();
    const auto files = citingFiles();
    texts.reserve(files.size());
    for (const fs::path& file : files) {
        texts.push_back(readText(file));
        const std::string& text = texts.back();
        for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern);
             it != std::sregex_iterator(); ++it)
            found.emplace_back(repoPath(file), *it);
    }
    return found;
}

} // namespace

class tst_Citations : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nothingCitesADocumentOutsideTheRepository_data();
    void nothingCitesADocumentOutsideTheRepository();
    void repositoryPathsExist();
    void ncclSectionsHaveHeadings();
    void articlesAreDescribed();
    void layerMapNamesEveryFolder();
};

void tst_Citations::nothingCitesADocumentOutsideTheRepository_data() {
    QTest::addColumn<QString>("pattern");
    // The notes FabricLab was started from live beside the repository, not in it; their
    // content is restated in docs/reference/ and cited there.
    QTest::newRow("NCCL model notes") << QStringLiteral(R"(\bnccl-model\.md)");
    QTest::newRow("figures notes") << QStringLiteral(R"((^|[^-\w])figures\.md)");
    QTest::newRow("design contract") << QStringLiteral(R"(\bDESIGN\.md)");
    QTest::newRow("the shared folder") << QStringLiteral(R"(\.\./shared/|shared/reference/)");
}

void tst_Citations::nothingCitesADocumentOutsideTheRepository() {
    QFETCH(QString, pattern);
    std::vector<std::string> texts;
    QStringList found;
    for (const auto& [file, match] : matches(std::regex(pattern.toStdString()), texts))
        if (file != "tests/model/tst_Citations.cpp")
            found << QString::fromStdString(file + ": " + match.str());
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
}

void tst_Citations::repositoryPathsExist() {
    // A path into the repository's own documents, figures, schemas and samples names a file
    // that is there. (Upstream projects' paths, such as TensorRT-LLM's docs/source/..., are
    // cited with their repository and commit and are not files of this one.)
    std::vector<std::string> texts;
    const std::regex path(
        R"(\b((?:docs/reference/[A-Za-z0-9_.-]+|docs/(?:sources|output-contract)|tests/[A-Za-z0-9_/]+/README)\.md)"
        R"(|schemas/[A-Za-z0-9_.-]+\.json|resources/(?:catalog|validation)/[A-Za-z0-9_.-]+\.json)"
        R"(|samples/[A-Za-z0-9_.-]+\.fabric\.json))");
    QStringList missing;
    for (const auto& [file, match] : matches(path, texts)) {
        std::string cited = match[1].str();
        while (!cited.empty() && (cited.back() == '.' || cited.back() == '/'))
            cited.pop_back();
        if (cited.find('*') == std::string::npos && !fs::exists(kRoot / cited))
            missing << QString::fromStdString(file + ": " + cited);
    }
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
}

void tst_Citations::ncclSectionsHaveHeadings() {
    const std::string notes = readText(kRoot / kNcclNotes);
    QVERIFY2(!notes.empty(), kNcclNotes);
    std::vector<std::string> texts;
    const std::regex section(R"(nccl-cost-model\.md §\s?([0-9]+(?:\.[0-9]+)?))");
    QStringList missing;
    for (const auto& [file, match] : matches(section, texts)) {
        const std::regex heading(
            "(^|\\n)#+ " + std::regex_replace(match[1].str(), std::regex(R"(\.)"), "\\.") + "[ .]");
        if (!std::regex_search(notes, heading))
            missing << QString::fromStdString(file + ": §" + match[1].str());
    }
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
}

void tst_Citations::articlesAreDescribed() {
    // "article 000" to "article 004": the background articles, each described in the
    // published-figures notes with its publisher and the figures FabricLab takes from it.
    const std::string notes = readText(kRoot / kFigureNotes);
    QVERIFY2(!notes.empty(), kFigureNotes);
    std::vector<std::string> texts;
    QStringList missing;
    for (const auto& [file, match] : matches(std::regex(R"([Aa]rticle (0[0-9]{2})\b)"), texts))
        if (notes.find("Article " + match[1].str()) == std::string::npos)
            missing << QString::fromStdString(file + ": article " + match[1].str());
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
}

void tst_Citations::layerMapNamesEveryFolder() {
    // The README's map of the layers names every folder of the engine and the views, so
    // a new folder comes with its line.
    const std::string readme = readText(kRoot / "README.md");
    const auto start = readme.find("## Layers");
    QVERIFY(start != std::string::npos);
    const std::string map = readme.substr(start, readme.find("\n## ", start + 1) - start);
    for (const char* layer : {"model", "views"})
        for (const auto& entry : fs::directory_iterator(kRoot / layer))
            if (entry.is_directory()) {
                const std::string folder = entry.path().filename().string() + "/";
                QVERIFY2(map.find("  " + folder) != std::string::npos,
                         (std::string(layer) + "/" + folder + " is missing from the map").c_str());
            }
}

QTEST_GUILESS_MAIN(tst_Citations)
#include "tst_Citations.moc"
