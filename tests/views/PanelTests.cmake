# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
# Panels, dialogs and item models (included from tests/views/CMakeLists.txt).
fabriclab_add_test(tst_PropertyTableModel tst_PropertyTableModel.cpp LIBS fabriclab::views)
fabriclab_add_test(tst_FabricPanel tst_FabricPanel.cpp LIBS fabriclab::views)
fabriclab_add_test(tst_GenerateDialog tst_GenerateDialog.cpp LIBS fabriclab::views)
# QTEST_MAIN suites with widgets: offscreen even when run outside the test preset.
set_tests_properties(tst_PropertyTableModel tst_FabricPanel tst_GenerateDialog
  PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
fabriclab_add_test(tst_StatusFigures tst_StatusFigures.cpp LIBS fabriclab::views)
fabriclab_add_test(tst_DesignAnalyzer tst_DesignAnalyzer.cpp LIBS fabriclab::views)
fabriclab_add_test(tst_DesignFacts tst_DesignFacts.cpp LIBS fabriclab::views)
set_tests_properties(tst_StatusFigures tst_DesignAnalyzer tst_DesignFacts
  PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
fabriclab_add_test(tst_ComparePanel tst_ComparePanel.cpp LIBS fabriclab::views)
set_tests_properties(tst_ComparePanel PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
fabriclab_add_test(tst_FailurePanel tst_FailurePanel.cpp LIBS fabriclab::views)
set_tests_properties(tst_FailurePanel PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
fabriclab_add_test(tst_TeachingPanel tst_TeachingPanel.cpp LIBS fabriclab::views)
set_tests_properties(tst_TeachingPanel PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
fabriclab_add_test(tst_ExplainPanel tst_ExplainPanel.cpp LIBS fabriclab::views)
set_tests_properties(tst_ExplainPanel PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
fabriclab_add_test(tst_ChartRegistry tst_ChartRegistry.cpp LIBS fabriclab::views)
set_tests_properties(tst_ChartRegistry PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
fabriclab_add_test(tst_AccuracyDialog tst_AccuracyDialog.cpp LIBS fabriclab::views)
set_tests_properties(tst_AccuracyDialog PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
# How numbers are written: one unit per figure, thousands grouped, canvas text included.
fabriclab_add_test(tst_NumberFormat tst_NumberFormat.cpp LIBS fabriclab::views)
set_tests_properties(tst_NumberFormat PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
fabriclab_add_test(tst_PlanPanel tst_PlanPanel.cpp LIBS fabriclab::views)
set_tests_properties(tst_PlanPanel PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
fabriclab_add_test(tst_SitesPanel tst_SitesPanel.cpp LIBS fabriclab::views)
set_tests_properties(tst_SitesPanel PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
