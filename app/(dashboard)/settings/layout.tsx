import { SettingsTabs } from "@/components/settings/settings-tabs";

export default function SettingsLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="stack-lg">
      <SettingsTabs />
      {children}
    </div>
  );
}
