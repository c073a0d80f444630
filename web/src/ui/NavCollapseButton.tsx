// The button at the foot of Semi's Nav that folds it to a rail of icons, as Semi's own
// (navigation/CollapseButton) draws it, but named in Chinese: Semi's, folded, is its icon alone,
// which names it "sidebar". Given to the Nav as `footer.collapseButton`, with the Nav's
// `isCollapsed` and `onCollapseChange` in the caller's hands.
import Tooltip from '@douyinfe/semi-ui-19/lib/es/tooltip';
import { IconSidebar } from './icons';
import { Button } from './semi';

export function NavCollapseButton({
  collapsed,
  onChange,
}: {
  collapsed: boolean;
  onChange: (collapsed: boolean) => void;
}) {
  const text = collapsed ? '展开侧边栏' : '收起侧边栏';
  const button = (
    <Button
      icon={<IconSidebar />}
      type="tertiary"
      theme="borderless"
      aria-label={collapsed ? text : undefined}
      onClick={() => onChange(!collapsed)}
    >
      {collapsed ? undefined : text}
    </Button>
  );
  return (
    <div className="semi-navigation-collapse-btn">
      {collapsed ? (
        <Tooltip content={text} position="right">
          <span className="semi-navigation-collapse-wrapper">{button}</span>
        </Tooltip>
      ) : (
        button
      )}
    </div>
  );
}
